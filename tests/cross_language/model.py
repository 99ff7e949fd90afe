"""Python's part of run.sh. The model everywhere: Linear(5, 8), ReLU, Linear(8, 3), saved as safetensors with the
names 0.weight, 0.bias, 2.weight, 2.bias plus the batch `input` and the trainer's `logits` on it.
  python model.py train FILE   trains it with ctensor (Adam, 100 steps on a fixed random batch) and saves it
  python model.py check FILE   loads FILE into ctensor's nn.Sequential and into torch's (through the safetensors
                               package) and compares both models' logits with the stored ones (max |diff| <= 1e-6)"""
import sys

import ctensor as ct
import ctensor.nn.functional as F


def sequential(nn):
    return nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 3))


def train(path):
    ct.manual_seed(5)
    model = sequential(ct.nn)
    x, y = ct.randn(16, 5), ct.randint(0, 3, (16,))
    opt = ct.optim.Adam(model.parameters(), lr=0.05)
    for _ in range(100):
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with ct.no_grad():
        tensors = dict(model.state_dict(), input=x, logits=model(x))
    ct.save_file(tensors, path, metadata={"trained_by": "python", "arch": "Linear(5, 8) ReLU Linear(8, 3)"})
    print(f"python: trained (final loss {loss.item():.4f}) and saved {path}")


def check(path):
    import torch
    from safetensors.torch import load_file as torch_load_file

    file = ct.load_file(path)
    by = ct.load_metadata(path).get("trained_by", "?")
    model = sequential(ct.nn)
    model.load_state_dict({k: v for k, v in file.items() if k not in ("input", "logits")})
    worst = (model(file["input"]) - file["logits"]).abs().max().item()
    tfile = torch_load_file(path)
    tmodel = sequential(torch.nn)
    tmodel.load_state_dict({k: v for k, v in tfile.items() if k not in ("input", "logits")})
    tworst = (tmodel(tfile["input"]) - tfile["logits"]).abs().max().item()
    print(f"python: logits of the model trained in {by}: max |diff| = {worst:.3g} (ctensor), {tworst:.3g} (torch)")
    if worst > 1e-6 or tworst > 1e-6:
        sys.exit("python: logits differ by more than 1e-6")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("train", "check"):
        sys.exit("usage: model.py train|check FILE")
    (train if sys.argv[1] == "train" else check)(sys.argv[2])
