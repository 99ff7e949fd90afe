// CheckModel.java - Java's part of run.sh: loads a model file (Linear(5, 8), ReLU, Linear(8, 3) as 0.weight,
// 0.bias, 2.weight, 2.bias, with `input` and the trainer's `logits`), recomputes the logits with org.ctensor and
// compares them with the stored ones (max |diff| <= 1e-6). Usage: java -cp ctensor.jar CheckModel.java FILE
import java.nio.file.Path;
import org.ctensor.Device;
import org.ctensor.SafeTensors;
import org.ctensor.Tensor;
import org.ctensor.TensorScope;
import org.ctensor.nn.Functional;

public class CheckModel {
    public static void main(String[] args) {
        try (SafeTensors f = SafeTensors.load(Path.of(args[0]), Device.CPU); TensorScope s = new TensorScope()) {
            Tensor h = Functional.linear(f.get("input"), f.get("0.weight"), f.get("0.bias")).relu();
            Tensor logits = Functional.linear(h, f.get("2.weight"), f.get("2.bias"));
            double worst = logits.sub(f.get("logits")).abs().max().item();
            System.out.printf("java: logits of the model trained in %s: max |diff| = %.3g over %d values%n",
                    f.metadata().getOrDefault("trained_by", "?"), worst, logits.numel());
            if (!(worst <= 1e-6)) System.exit(1);
        }
    }
}
