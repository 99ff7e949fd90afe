// Module.java - base of the nn layers: named parameters, buffers and children, train/eval mode, state dicts
// (name -> tensor, names joined with '.'), and close() releasing every tensor the module owns.
package org.ctensor.nn;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ctensor.NoGrad;
import org.ctensor.Tensor;

public abstract class Module implements AutoCloseable {
    private final LinkedHashMap<String, Tensor> params = new LinkedHashMap<>();
    private final LinkedHashMap<String, Tensor> buffers = new LinkedHashMap<>();
    private final LinkedHashMap<String, Module> children = new LinkedHashMap<>();
    protected boolean training = true;

    /** The layer's computation. */
    public abstract Tensor forward(Tensor x);

    /** Registers a parameter (made a grad-requiring leaf owned by this module). */
    protected Tensor registerParameter(String name, Tensor t) {
        params.put(name, t.unscoped().requiresGrad(true));
        return t;
    }

    /** Registers a state tensor that is saved but not trained (e.g. running statistics). */
    protected Tensor registerBuffer(String name, Tensor t) {
        buffers.put(name, t.unscoped());
        return t;
    }

    protected <M extends Module> M registerModule(String name, M m) {
        children.put(name, m);
        return m;
    }

    /** Every parameter, depth first in registration order. */
    public List<Tensor> parameters() {
        List<Tensor> out = new ArrayList<>(params.values());
        for (Module c : children.values()) out.addAll(c.parameters());
        return out;
    }

    /** Every buffer (state saved but not trained, e.g. running statistics), depth first in registration order. */
    public List<Tensor> buffers() {
        List<Tensor> out = new ArrayList<>(buffers.values());
        for (Module c : children.values()) out.addAll(c.buffers());
        return out;
    }

    /** Parameters and buffers by dotted name (the module's own tensors: do not close them). */
    public Map<String, Tensor> stateDict() {
        LinkedHashMap<String, Tensor> out = new LinkedHashMap<>();
        collect("", out);
        return out;
    }

    private void collect(String prefix, Map<String, Tensor> out) {
        params.forEach((k, v) -> out.put(prefix + k, v));
        buffers.forEach((k, v) -> out.put(prefix + k, v));
        children.forEach((k, c) -> c.collect(prefix + k + ".", out));
    }

    /** Copies the values of state into this module's tensors; the key sets must match exactly. */
    public void loadStateDict(Map<String, Tensor> state) {
        Map<String, Tensor> mine = stateDict();
        List<String> missing = new ArrayList<>(), unexpected = new ArrayList<>();
        for (String k : mine.keySet()) if (!state.containsKey(k)) missing.add(k);
        for (String k : state.keySet()) if (!mine.containsKey(k)) unexpected.add(k);
        if (!missing.isEmpty() || !unexpected.isEmpty())
            throw new IllegalArgumentException("loadStateDict: missing keys " + missing + ", unexpected keys " + unexpected);
        try (NoGrad ng = new NoGrad()) {
            for (Map.Entry<String, Tensor> e : mine.entrySet()) e.getValue().copyFrom(state.get(e.getKey()));
        }
    }

    public Module train(boolean on) {
        training = on;
        for (Module c : children.values()) c.train(on);
        return this;
    }

    public Module eval() {
        return train(false);
    }

    public boolean isTraining() {
        return training;
    }

    /** Clears the gradients of every parameter. */
    public void zeroGrad() {
        for (Tensor p : parameters()) p.setGrad(null);
    }

    @Override
    public void close() {
        params.values().forEach(Tensor::close);
        buffers.values().forEach(Tensor::close);
        children.values().forEach(Module::close);
    }

    /** U(-bound, bound) leaf of the given shape (torch's default init for Linear and Conv2d). */
    static Tensor uniform(org.ctensor.Generator gen, double bound, long... shape) {
        try (Tensor u = Tensor.rand(gen, shape); Tensor s = u.mul(2 * bound); Tensor r = s.sub(bound)) {
            return r.detach();
        }
    }
}
