// Sequential.java - modules applied in order (children named "0", "1", ...); intermediates are closed.
package org.ctensor.nn;

import java.util.ArrayList;
import java.util.List;
import org.ctensor.Tensor;

public final class Sequential extends Module {
    private final List<Module> layers = new ArrayList<>();

    public Sequential(Module... modules) {
        for (Module m : modules) add(m);
    }

    public Sequential add(Module m) {
        registerModule(Integer.toString(layers.size()), m);
        layers.add(m);
        return this;
    }

    public Module get(int i) {
        return layers.get(i);
    }

    public int size() {
        return layers.size();
    }

    @Override
    public Tensor forward(Tensor x) {
        Tensor h = x;
        for (Module m : layers) {
            Tensor next = m.forward(h);
            if (h != x) h.close();
            h = next;
        }
        return h == x ? x.share() : h;
    }
}
