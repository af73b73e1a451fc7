"""docs/results/wide.md: our one-pass and moment learners beside Vowpal Wabbit and
scikit-learn's LogisticRegression / SGDClassifier on wide sparse data, on the same
train/test files.

On a fresh machine, from anywhere:

    python3 benches/peers/wide.py --timeout 900
        # the committed page (about 35 minutes): the one-pass moment learners take sketch=32
        # by themselves on the wide sets, an O(K t + |T|) step over the touched features: 3 to
        # 6 minutes each on the click log, 20 to 40 seconds on crossed a9a; any training run
        # is stopped at 15 minutes
    python3 benches/peers/wide.py --skip-ours opauc,oauc-m,adaoam,admoam --timeout 300
        # without them (about 15 minutes)
    python3 benches/peers/wide.py --quick         # tiny sizes, a scratch page

The script makes its own environment: run by any python3, it calls benches/peers/setup_venv.sh
(the pinned peers of requirements.txt, in target/peers-venv unless --venv), installs the pins of
wide-requirements.txt (Vowpal Wabbit) into the same venv, and re-runs itself with the venv's
python. If Vowpal Wabbit cannot be installed the error goes to the page and the rest still runs.

Data sets (each written once as LIBSVM train and test files that every column reads):

  clicklog  a click-log-like file generated here (`write_clicklog`, seeded, standard library):
            20 one-hot fields of fixed cardinalities summing to 260,298 features, popular
            values drawn more often (slot = floor(c u^3), u uniform, as in
            benches/gen_wide_sparse.py), a hidden N(0, 0.5^2) effect per feature, and a row
            positive with probability sigmoid(-5.95 + sum of its 20 effects), about 2.7 %.
            100,000 rows: the first 80,000 train, the last 20,000 test. (gen_wide_sparse.py has
            no knob for the positive rate, which its fixed intercept puts near 10 %.)
  a9a       the shared a9a / a9a.t files as shipped (positive class +1).
  a9a-cross a9a with hashed pairwise crosses into 2^18 buckets: only when `auc train --help`
            mentions --cross-hash-bits (our learners get `--hash-bits 18 --cross-hash-bits 18`,
            since crosses need hashing; VW gets
            `-q ff -b 18`; scikit-learn gets the 123 features plus every pair of a row's
            features hashed into 2^18 columns by `cross_bucket` below. Three hashings of the same
            pairs, not one feature matrix).
  stream    benches/gen_wide_sparse.py at its defaults (p = 2^20, 20 fields, about 10 %
            positives): 1,000,000 training rows (seed 1) and 200,000 test rows (seed 2); its
            hidden effects depend on the feature index only, so the two seeds are one problem.
            Only the O(nnz) learners (STREAM_OURS), each also with `--scale none` (the features
            are 0/1, so max-abs scaling changes no value; it is fitted at first sight, in the
            learning pass), and VW; the table adds rows/s (training rows over the whole `auc train`
            process's wall time, or VW's driver reading and learning). Skipped by --quick and
            --no-stream.

Everything runs on one thread where it can be set: `auc train --threads 1 --one-thread`,
`auc predict --one-thread`, OMP/OPENBLAS/MKL_NUM_THREADS=1 for the peers (liblinear and SGD are
single-threaded anyway). VW's text parser runs on a thread of its own, which 9.11.9 has no
option to turn off. Learners and peers run at their defaults except where stated (LogisticRegression
C = 0.1, class_weight balanced, liblinear; SGDClassifier log_loss, class_weight balanced,
random_state 0; VW logistic loss, one pass, positives' importance n_neg / n_pos or 1).
Every training run is a subprocess under /usr/bin/time -v for its peak RSS.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import random
import shlex
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
WIDE_REQUIREMENTS = HERE / "wide-requirements.txt"

# --- the generated click log ------------------------------------------------------------------
# Cardinalities of the 20 one-hot fields (indices 1.. in this order). They sum to 260,298, and the
# last field is small (24 values, an hour of the day) so that the largest index appears in any
# file of more than a few hundred rows and every reader finds the same dimension.
CLICK_FIELDS = [70319, 50000, 40000, 32000, 24000, 16000, 12000, 8000, 4000, 2000,
                1000, 500, 250, 100, 52, 31, 12, 7, 3, 24]
CLICK_DIM = sum(CLICK_FIELDS)  # 260,298
CLICK_EFFECT_SD = 0.5
CLICK_INTERCEPT = -5.95  # about 2.7 % positives (measured on 100,000 rows: 2.69 %)
CLICK_EFFECT_SEED = 7
CLICK_ROW_SEED = 1

CROSS_BITS = 18

# --- our learners: (row name, `auc train` arguments) ------------------------------------------
# Rows may carry any extra CLI arguments; the moment learners need p^2 memory and are expected to
# refuse on the wide sets (the row then records the first line of the refusal).
OURS = [
    ("pa-i", ["--algo", "pa-i"]),
    ("perceptron", ["--algo", "perceptron"]),
    ("solam", ["--algo", "solam"]),
    ("bal-adagrad", ["--algo", "bal-adagrad"]),
    ("bal-ftrl", ["--algo", "bal-ftrl"]),
    ("oam-seq", ["--algo", "oam-seq"]),
    ("oam-gra", ["--algo", "oam-gra"]),
    ("opauc", ["--algo", "opauc"]),
    ("oauc-m", ["--algo", "oauc-m"]),
    ("adaoam", ["--algo", "adaoam"]),
    ("admoam", ["--algo", "admoam"]),
    ("opauc-batch", ["--algo", "opauc-batch"]),
    ("oauc-m-batch", ["--algo", "oauc-m-batch"]),
    ("opauc-batch sketch 32", ["--algo", "opauc-batch", "--param", "sketch=32"]),
    ("oauc-m-batch sketch 32", ["--algo", "oauc-m-batch", "--param", "sketch=32"]),
]
STREAM_OURS = ["pa-i", "perceptron", "solam", "bal-adagrad", "bal-ftrl"]

# --- peers: (row name, worker spec) ------------------------------------------------------------
PEERS = [
    ("VW logistic, importance-weighted", {"kind": "vw", "weighted": True}),
    ("VW logistic, plain", {"kind": "vw", "weighted": False}),
    ("sklearn LogisticRegression (balanced, C=0.1, liblinear)", {"kind": "lr"}),
    ("sklearn SGDClassifier (log_loss, balanced)", {"kind": "sgd"}),
]
STREAM_PEERS = ["VW logistic, importance-weighted", "VW logistic, plain"]

# The earlier table of the issue ("Wide sparse data"), on a 260,298-feature click-log file that
# is not in the repository: kept for comparison, not regenerated.
EARLIER = [
    ("VW logistic, importance-weighted", "0.890", "1.9 s"),
    ("sklearn LogisticRegression (balanced, C=0.1)", "0.897", "5.8 s"),
    ("`auc train --algo solam`", "0.880", ""),
    ("`auc train --algo pa-i`", "0.847", ""),
    ("opauc, oauc-m, adaoam, admoam, opauc-batch", "refused (p^2 memory)", ""),
]


# ===================================== environment ============================================

def missing_pins(python: str, requirements: Path) -> list[str]:
    code = (
        "import sys\nfrom importlib import metadata\nmiss=[]\n"
        "for line in open(sys.argv[1]):\n"
        "    line=line.split('#',1)[0].strip()\n"
        "    if not line: continue\n"
        "    name,want=line.split('==')\n"
        "    try: have=metadata.version(name)\n"
        "    except metadata.PackageNotFoundError: have=None\n"
        "    if have!=want: miss.append(line)\n"
        "print('\\n'.join(miss))\n"
    )
    out = subprocess.run([python, "-c", code, str(requirements)], check=True,
                         capture_output=True, text=True).stdout
    return [x for x in out.splitlines() if x.strip()]


def install_wide_pins(python: str) -> str | None:
    """Installs wide-requirements.txt into the venv of `python` when a pin is missing; returns
    None on success, else the pip error (its ERROR lines, or its last line)."""
    if not missing_pins(python, WIDE_REQUIREMENTS):
        return None
    r = subprocess.run([python, "-m", "pip", "install", "--disable-pip-version-check",
                        "-r", str(WIDE_REQUIREMENTS)], capture_output=True, text=True)
    if r.returncode == 0 and not missing_pins(python, WIDE_REQUIREMENTS):
        return None
    lines = [x for x in (r.stderr + r.stdout).splitlines() if x.strip()]
    errors = [x for x in lines if x.startswith("ERROR")]
    return "\n".join(errors or lines[-1:] or [f"pip exited with code {r.returncode}"])


def bootstrap(venv: Path, argv: list[str]) -> None:
    """Outside the venv: make it (setup_venv.sh), add the wide pins, re-run this script in it.
    Inside it: add the wide pins if they are missing."""
    venv = venv.absolute()
    python = venv / "bin" / "python"
    if Path(sys.prefix).resolve() == venv.resolve():
        err = install_wide_pins(sys.executable)
        if err and "WIDE_VW_INSTALL_ERROR" not in os.environ:
            os.environ["WIDE_VW_INSTALL_ERROR"] = err
        return
    subprocess.run(["bash", str(HERE / "setup_venv.sh"), str(venv)], check=True)
    env = dict(os.environ)
    err = install_wide_pins(str(python))
    if err:
        print(f"could not install {WIDE_REQUIREMENTS.name}:\n{err}", file=sys.stderr)
        env["WIDE_VW_INSTALL_ERROR"] = err
    os.execve(str(python), [str(python), str(Path(__file__).resolve()), *argv], env)


# ======================================== data ================================================

def write_clicklog(train: Path, test: Path, n_train: int, n_test: int) -> None:
    """The generated click log: n_train + n_test i.i.d. rows of one seeded sequence, the first
    n_train to `train`. Same arguments, same bytes (standard library `random` only)."""
    effect = click_effects()
    bases, s = [], 0
    for c in CLICK_FIELDS:
        bases.append(s)
        s += c
    fields = list(zip(bases, CLICK_FIELDS))
    rng = random.Random(CLICK_ROW_SEED)
    rnd = rng.random
    for path, n in ((train, n_train), (test, n_test)):
        with open(path, "w", buffering=1 << 20) as f:
            for start in range(0, n, 1000):
                lines = []
                for _ in range(min(1000, n - start)):
                    idx = [b + int(c * rnd() ** 3) for b, c in fields]  # 0-based
                    z = CLICK_INTERCEPT + sum(effect[j] for j in idx)
                    y = rnd() < 1.0 / (1.0 + math.exp(-z))
                    lines.append(("+1" if y else "-1") + "".join(f" {j + 1}:1" for j in idx))
                f.write("\n".join(lines) + "\n")


def click_effects() -> list[float]:
    er = random.Random(CLICK_EFFECT_SEED)
    return [CLICK_EFFECT_SD * er.gauss(0.0, 1.0) for _ in range(CLICK_DIM)]


def true_log_odds(kind: str, test: Path) -> list[float]:
    """The generator's own log-odds of each test row: the best any scorer can rank them
    (for reference). click log: CLICK_INTERCEPT + its effects; stream: gen_wide_sparse.py's
    -4 + sum of ((j * 2654435761) % 4096) / 2048 - 1 over its indices j."""
    effect = click_effects() if kind == "clicklog" else None
    out = []
    with open(test) as f:
        for line in f:
            idx = [int(t.split(":", 1)[0]) for t in line.split()[1:]]
            if effect is not None:
                out.append(CLICK_INTERCEPT + sum(effect[j - 1] for j in idx))
            else:
                out.append(-4.0 + sum(((j * 2654435761) % 4096) / 2048.0 - 1.0 for j in idx))
    return out


def scan_libsvm(path: Path, counts: dict | None = None, seen: dict | None = None):
    """(labels as 0/1 list, max index, non-zeros, rare non-zeros) of a LIBSVM file with +1/-1
    labels. `counts` (index -> rows) is filled when given; with `seen` (another file's counts),
    rare non-zeros counts those on indices seen fewer than 5 times there."""
    labels, max_index, nnz, rare = [], 0, 0, 0
    with open(path) as f:
        for line in f:
            parts = line.split()
            if not parts:
                continue
            labels.append(1 if float(parts[0]) > 0 else 0)
            nnz += len(parts) - 1
            if len(parts) > 1:
                idx = [int(t.split(":", 1)[0]) for t in parts[1:]]
                max_index = max(max_index, max(idx))
                if counts is not None:
                    for j in idx:
                        counts[j] = counts.get(j, 0) + 1
                if seen is not None:
                    rare += sum(1 for j in idx if seen.get(j, 0) < 5)
    return labels, max_index, nnz, rare


def head_lines(src: Path, dst: Path, n: int) -> None:
    with open(src) as f, open(dst, "w") as g:
        for i, line in enumerate(f):
            if i >= n:
                break
            g.write(line)


def write_vw(src: Path, dst: Path, pos_weight: float | None) -> None:
    """LIBSVM rows as VW text in namespace f: `1 W |f 3:1 ...` / `-1 |f ...`; W (the
    positives' importance) only when pos_weight is given."""
    with open(src) as f, open(dst, "w", buffering=1 << 20) as g:
        out = []
        for line in f:
            label, _, feats = line.strip().partition(" ")
            if float(label) > 0:
                head = "1" if pos_weight is None else f"1 {pos_weight:.6g}"
            else:
                head = "-1"
            out.append(f"{head} |f {feats}")
            if len(out) >= 10000:
                g.write("\n".join(out) + "\n")
                out = []
        if out:
            g.write("\n".join(out) + "\n")


def cross_bucket(i: int, j: int, bits: int) -> int:
    """The bucket of the pair (i, j), i < j, for scikit-learn's crossed a9a (a multiplicative
    hash; not the hash of `auc --cross-hash-bits` nor VW's -q)."""
    h = ((i * 0x9E3779B1) ^ (j * 0x85EBCA77) ^ ((i * j) * 0xC2B2AE3D)) & 0xFFFFFFFF
    h ^= h >> 15
    h = (h * 0x2C1B3C6D) & 0xFFFFFFFF
    h ^= h >> 12
    return h & ((1 << bits) - 1)


# ======================================= workers ==============================================

def worker(spec_path: str) -> None:
    """One peer fit in its own process (so /usr/bin/time sees its peak RSS): prints JSON with
    load_seconds (reading the training file into memory; 0 for VW, which reads as it learns),
    train_seconds and predict_seconds, and writes one test score a line to spec['scores']."""
    spec = json.loads(Path(spec_path).read_text())
    kind = spec["kind"]
    out = {}
    if kind == "vw":
        from vowpalwabbit import Workspace

        args = (f"-d {spec['train']} --loss_function logistic -b {spec['bits']} "
                f"{spec.get('vw_extra', '')} -f {spec['model']} --quiet")
        t0 = time.perf_counter()
        w = Workspace(args)
        w.finish()
        out["train_seconds"] = time.perf_counter() - t0
        out["load_seconds"] = 0.0
        out["vw_args"] = f"--loss_function logistic -b {spec['bits']} {spec.get('vw_extra', '')}"
        t0 = time.perf_counter()
        w = Workspace(f"-d {spec['test']} -t -i {spec['model']} -p {spec['scores']} --quiet")
        w.finish()
        out["predict_seconds"] = time.perf_counter() - t0
    else:
        import numpy as np
        from sklearn.datasets import load_svmlight_file
        from sklearn.linear_model import LogisticRegression, SGDClassifier

        t0 = time.perf_counter()
        x, y = load_svmlight_file(spec["train"], n_features=spec["dim"])
        if spec.get("cross_bits"):
            x = with_crosses(x, spec["cross_bits"])
        out["load_seconds"] = time.perf_counter() - t0
        xt, _ = load_svmlight_file(spec["test"], n_features=spec["dim"])
        if spec.get("cross_bits"):
            xt = with_crosses(xt, spec["cross_bits"])
        # liblinear and SGD take 32-bit indices only; load_svmlight_file gives 64-bit ones.
        for m in (x, xt):
            m.indices = m.indices.astype(np.int32)
            m.indptr = m.indptr.astype(np.int32)
        y = (y > 0).astype(int)
        if kind == "lr":
            model = LogisticRegression(class_weight="balanced", C=0.1, solver="liblinear")
        else:
            model = SGDClassifier(loss="log_loss", class_weight="balanced", random_state=0)
        t0 = time.perf_counter()
        model.fit(x, y)
        out["train_seconds"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        s = model.decision_function(xt)
        out["predict_seconds"] = time.perf_counter() - t0
        np.savetxt(spec["scores"], s, fmt="%.10g")
        if kind == "sgd":
            out["note"] = f"{model.n_iter_} epochs"
        else:
            out["note"] = f"{int(np.max(model.n_iter_))} liblinear iterations"
    print(json.dumps(out))


def with_crosses(x, bits):
    """x (CSR) with 2^bits columns appended: every pair i < j of a row's non-zeros adds
    x_i x_j to column dim + cross_bucket(i, j) (collisions summed)."""
    import numpy as np
    import scipy.sparse as sp

    rows, cols, vals = [], [], []
    indptr, indices, data = x.indptr, x.indices, x.data
    for r in range(x.shape[0]):
        a, b = indptr[r], indptr[r + 1]
        idx, val = indices[a:b].tolist(), data[a:b].tolist()
        for u in range(len(idx)):
            for v in range(u + 1, len(idx)):
                i, j = sorted((idx[u], idx[v]))
                rows.append(r)
                cols.append(cross_bucket(i, j, bits))
                vals.append(val[u] * val[v])
    c = sp.csr_matrix((np.array(vals), (np.array(rows), np.array(cols))),
                      shape=(x.shape[0], 1 << bits))
    c.sum_duplicates()
    return sp.hstack([x, c], format="csr")


# ======================================= running ==============================================

def read_time_v(path: Path) -> float | None:
    """Peak RSS in MB from /usr/bin/time -v output."""
    try:
        for line in path.read_text().splitlines():
            if "Maximum resident set size" in line:
                return int(line.rsplit(":", 1)[1]) / 1024.0
    except (OSError, ValueError):
        pass
    return None


def timed(cmd: list[str], timefile: Path, timeout: float, env=None):
    """Runs cmd under /usr/bin/time -v; returns (returncode or None on timeout, stdout, stderr,
    wall seconds, peak RSS MB)."""
    full = ["/usr/bin/time", "-v", "-o", str(timefile), *cmd]
    t0 = time.perf_counter()
    try:
        r = subprocess.run(full, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return None, "", "", time.perf_counter() - t0, None
    return r.returncode, r.stdout, r.stderr, time.perf_counter() - t0, read_time_v(timefile)


def first_error_line(stderr: str, work: Path | None = None) -> str:
    """The first line of an `auc` error (the line with `error:`; `auc` prints what it read,
    the positive class, before it), with the scratch folder's path cut off."""
    lines = [x.strip() for x in stderr.splitlines() if x.strip() and not x.startswith("\t")]
    lines = [x for x in lines if not x.startswith("Command exited with non-zero status")]
    errors = [x for x in lines if "error:" in x]
    line = (errors or lines or ["(no message)"])[0]
    if work is not None:
        line = line.replace(str(work) + "/", "")
    return line


def metrics(scores_path: Path, labels: list[int]):
    import numpy as np
    from sklearn.metrics import average_precision_score, roc_auc_score

    s = np.loadtxt(scores_path, dtype=float, ndmin=1)
    if len(s) != len(labels):
        raise ValueError(f"{len(s)} scores for {len(labels)} test rows")
    y = np.array(labels)
    return float(roc_auc_score(y, s)), float(average_precision_score(y, s))


def run_ours(a, name, args, ds, work, cross: bool):
    tag = ds["name"] + "." + name.replace(",", "").replace(" ", "_")
    model, scores = work / f"{tag}.model", work / f"{tag}.scores"
    # Crosses need hashing: the 123 a9a features keep their indices under 18 hash bits.
    extra = ["--hash-bits", str(CROSS_BITS), "--cross-hash-bits", str(CROSS_BITS)] if cross else []
    cmd = [a.auc, "train", *args, *extra, "--threads", "1", "--one-thread", "--json",
           "-o", str(model), str(ds["train"])]
    rc, out, err, wall, rss = timed(cmd, work / f"{tag}.time", a.timeout)
    row = {"name": f"`auc` {name}", "cmd": "auc train " + " ".join(args + extra), "rss": rss}
    if rc is None:
        return {**row, "status": f"timed out after {a.timeout:.0f} s"}
    if rc != 0:
        line = first_error_line(err, work)
        kind = "refused" if "memory" in line.lower() else "failed"
        return {**row, "status": f"{kind}: {line}"}
    info = {}
    for x in out.splitlines():
        if x.strip().startswith("{"):
            info = json.loads(x)
    pr = subprocess.run([a.auc, "predict", "--model", str(model), "--one-thread", "--json",
                         "-o", str(scores), str(ds["test"])], capture_output=True, text=True)
    if pr.returncode != 0:
        return {**row, "status": f"predict failed: {first_error_line(pr.stderr, work)}",
                "train": wall}
    auc, ap = metrics(scores, ds["test_labels"])
    notes = []
    if info.get("scaling"):
        notes.append(f"scaling {info['scaling']}")
    if info.get("params"):
        notes.append(", ".join(f"{k} {v:g}" if isinstance(v, float) else f"{k} {v}"
                               for k, v in info["params"].items()))
    return {**row, "status": "ok", "auc": auc, "ap": ap, "train": wall,
            "notes": "; ".join(notes), "one_pass": args[1] in a.one_pass}


def run_peer(a, name, spec, ds, work, cross: bool):
    tag = ds["name"] + "." + spec["kind"] + ("w" if spec.get("weighted") else "")
    scores = work / f"{tag}.scores"
    full = {"kind": spec["kind"], "scores": str(scores), "dim": ds["dim"],
            "model": str(work / f"{tag}.vwmodel")}
    if spec["kind"] == "vw":
        if os.environ.get("WIDE_VW_INSTALL_ERROR"):
            return {"name": name, "status": "not run: vowpalwabbit could not be installed "
                    "(error below)"}
        full["train"] = str(ds["vw_train_w"] if spec["weighted"] else ds["vw_train"])
        full["test"] = str(ds["vw_test"])
        full["bits"] = ds["vw_bits"]
        if cross:
            full["vw_extra"] = "-q ff"
    else:
        full["train"], full["test"] = str(ds["train"]), str(ds["test"])
        if cross:
            full["cross_bits"] = CROSS_BITS
    spec_path = work / f"{tag}.spec.json"
    spec_path.write_text(json.dumps(full))
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    rc, out, err, wall, rss = timed([sys.executable, str(Path(__file__).resolve()),
                                     "--worker", str(spec_path)],
                                    work / f"{tag}.time", a.timeout, env)
    row = {"name": name, "rss": rss}
    if rc is None:
        return {**row, "status": f"timed out after {a.timeout:.0f} s"}
    if rc != 0:
        tail = [x for x in err.splitlines() if x.strip() and not x.startswith("\t")]
        return {**row, "status": "failed: " + (tail[-1] if tail else f"exit {rc}")}
    info = json.loads(out.strip().splitlines()[-1])
    auc, ap = metrics(scores, ds["test_labels"])
    notes = []
    if spec["kind"] != "vw":
        notes.append(f"+ {info['load_seconds']:.2f} s to load the training file")
    if info.get("note"):
        notes.append(info["note"])
    if info.get("vw_args"):
        notes.append("`" + " ".join(info["vw_args"].split()) + "`, one pass")
        if spec.get("weighted"):
            notes.append(f"positives' importance {ds['pos_weight']:.2f}")
    return {**row, "status": "ok", "auc": auc, "ap": ap, "train": info["train_seconds"],
            "notes": "; ".join(notes)}


def vw_bits(max_index: int) -> int:
    """Bits so that 2^b > max index: VW puts numeric feature n of namespace f at
    (n + 34875) mod 2^b (checked with --readable_model on 9.11.9), so the indices 1..max
    never share a weight. At least 18, VW's default."""
    return max(18, math.ceil(math.log2(max_index + 1)))


def prepare(name, train, test, work, label):
    """Scans the files, writes the VW versions, returns the data set record."""
    counts = {}
    train_labels, max_tr, nnz_tr, _ = scan_libsvm(train, counts=counts)
    test_labels, max_te, nnz_te, rare_te = scan_libsvm(test, seen=counts)
    n_pos = sum(train_labels)
    n_neg = len(train_labels) - n_pos
    weight = n_neg / n_pos
    ds = {"name": name, "label": label, "train": train, "test": test,
          "n_train": len(train_labels), "n_test": len(test_labels), "pos_train": n_pos,
          "pos_test": sum(test_labels), "dim": max(max_tr, max_te), "dim_train": max_tr,
          "nnz_row": nnz_tr / len(train_labels), "test_labels": test_labels,
          "pos_weight": weight, "seen_train": len(counts), "rare_test": rare_te / nnz_te}
    ds["vw_train_w"] = work / f"{name}.train.w.vw"
    ds["vw_train"] = work / f"{name}.train.vw"
    ds["vw_test"] = work / f"{name}.test.vw"
    write_vw(train, ds["vw_train_w"], weight)
    write_vw(train, ds["vw_train"], None)
    write_vw(test, ds["vw_test"], None)
    ds["vw_bits"] = vw_bits(ds["dim"])
    return ds


# ======================================== page ================================================

def fmt(r, key, digits=3):
    v = r.get(key)
    return "" if v is None else f"{v:.{digits}f}"


def machine():
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                mem = f", {int(line.split()[1]) / 1024 / 1024:.0f} GB RAM"
    except OSError:
        pass
    return f"{os.cpu_count()} cores ({cpu}){mem}, {platform.system()} {platform.release()}"


def versions(auc):
    v = {}
    try:
        v["auc"] = subprocess.run([auc, "--version"], capture_output=True, text=True).stdout.strip()
    except OSError:
        v["auc"] = "?"
    try:
        v["commit"] = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
                                     capture_output=True, text=True).stdout.strip()
    except OSError:
        v["commit"] = "?"
    from importlib import metadata
    for pkg in ("scikit-learn", "numpy", "scipy", "vowpalwabbit"):
        try:
            v[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            v[pkg] = "not installed"
    v["python"] = platform.python_version()
    return v


def write_page(a, command, started, load0, datasets, results, gaps, cross_help, vers):
    load1 = os.getloadavg()
    L = ["# Wide sparse data: our learners beside Vowpal Wabbit and scikit-learn", ""]
    L += [
        f"Produced by `{command}` (see the script's docstring) on {started} UTC, on "
        f"{machine()}; load average {load0[0]:.1f} at the start and {load1[0]:.1f} at the end. "
        f"`auc` {vers['auc'].replace('auc ', '')} built from commit {vers['commit']} "
        f"(release); Python {vers['python']}, scikit-learn {vers['scikit-learn']}, numpy "
        f"{vers['numpy']}, scipy {vers['scipy']}, vowpalwabbit {vers['vowpalwabbit']}."
        + (" The load average was above the number of cores: other jobs shared the machine, "
           "so the times are inflated and noisy (AUC and AP do not depend on it; the runs are "
           "deterministic)." if max(load0[0], load1[0]) > (os.cpu_count() or 1) else ""),
        "",
        "Every column reads the same training and test rows: each data set is written once as "
        "a LIBSVM train and test file, scikit-learn reads them with `load_svmlight_file` (with "
        "the data set's dimension), Vowpal Wabbit reads a text copy of the same rows (namespace "
        "`f`, the same indices and values). One thread wherever it can be set (VW's text parser "
        "has its own thread). No parameter is tuned: our learners run at the defaults "
        "`auc algos` lists, the peers as stated in their row.",
        "",
        "Columns: **AUC** and **AP** (average precision) on the test file, computed by "
        "scikit-learn from each column's scores; **train s**: for `auc`, the wall time of the "
        "whole `auc train` process (parsing, a first pass over the file for the scaling, "
        "positive class and dimension where one is needed (the max-abs scaling of a file "
        "whose features keep their first magnitude is fitted in the learning pass instead, "
        "for every one-pass learner but the moment learners), learning, saving the "
        "model); for VW, the wall "
        "time of its driver reading the text file and learning in one pass (interpreter start "
        "and import not counted); for scikit-learn, `fit` alone, on the matrix already in "
        "memory (the load time is in the notes); **peak RSS**: the peak resident memory of that "
        "training process by `/usr/bin/time -v` (for the peers, the Python process with its "
        "libraries, the training and test matrices and the model).",
        "",
        "## Data sets",
        "",
        "| data set | training rows | test rows | features | non-zeros a row | positives (train) | "
        "positives' VW importance | features seen in training | test non-zeros on features "
        "seen < 5 times in training |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for ds in datasets:
        feats = f"{ds['dim']:,}" + (f" + 2^{CROSS_BITS} crosses" if ds.get("cross") else "")
        L.append(f"| {ds['label']} | {ds['n_train']:,} | {ds['n_test']:,} | {feats} | "
                 f"{ds['nnz_row']:.1f} | {ds['pos_train']:,} "
                 f"({100 * ds['pos_train'] / ds['n_train']:.2f} %) | {ds['pos_weight']:.2f} | "
                 f"{ds['seen_train']:,} | {100 * ds['rare_test']:.1f} % |")
    L += [""]
    L += [
        "- **click log** (`write_clicklog` in the script): 20 one-hot fields of fixed "
        f"cardinalities ({', '.join(f'{c:,}' for c in CLICK_FIELDS)}; {CLICK_DIM:,} features "
        "in all), popular values of a field drawn more often (value floor(c u^3) of c, u "
        "uniform, as in `benches/gen_wide_sparse.py`), a hidden effect per feature drawn from "
        f"N(0, {CLICK_EFFECT_SD}^2), and a row positive with probability sigmoid("
        f"{CLICK_INTERCEPT} + the sum of its 20 effects). One seeded sequence of i.i.d. rows, "
        "the first ones for training and the rest for testing. Most of the index space is rare, "
        "as in real click logs: the last two columns above say how much of it the training "
        "rows show and how much of the test rows falls on features seen fewer than 5 times. "
        "`benches/gen_wide_sparse.py` could not be used for this set because its intercept is "
        "fixed (about 10 % positives); it is used for the stream below. This is not the file "
        "of the issue's earlier table (that file is not in the repository), so the numbers "
        "differ from it.",
        "- **a9a**: `a9a.libsvm` / `a9a.t.libsvm` of the shared data sets as shipped, positive "
        "class +1.",
    ]
    if any(ds["name"] == "a9a-cross" for ds in datasets):
        L.append(
            f"- **a9a with hashed pairwise crosses (2^{CROSS_BITS})**: the a9a files; our "
            f"learners get `--hash-bits {CROSS_BITS} --cross-hash-bits {CROSS_BITS}` ({cross_help}), "
            f"VW gets `-q ff -b "
            f"{CROSS_BITS}`, and scikit-learn gets the a9a features plus, for every pair of a "
            f"row's non-zeros, their product added to one of 2^{CROSS_BITS} extra columns "
            "(`cross_bucket` in the script). The same pairs, hashed three different ways.")
    if any(ds["name"] == "stream" for ds in datasets):
        L.append(
            "- **stream**: `python3 benches/gen_wide_sparse.py` at its defaults (2^20 features, "
            "20 one-hot fields, fixed hidden effects, about 10 % positives), training file "
            "`--seed 1`, test file `--seed 2 --rows 200000`: the hidden effects depend only on "
            "the feature index, so the two files are one problem. Only the O(nnz) learners "
            f"({', '.join(STREAM_OURS)}) and VW are run on it; each of ours also with "
            "`--scale none`: the features are 0/1, so max-abs scaling changes no value; it is "
            "fitted at first sight in the learning pass (one pass over the file). "
            "**rows/s**: the training rows over train s, "
            "that is over the whole `auc train` process (every pass, parsing included, saving "
            "the model) or VW's driver reading the text and learning.")
    L.append("")
    for ds in datasets:
        stream = ds.get("stream", False)
        L += [f"## {ds['label']}", "",
              "| learner | status | AUC | AP | train s | " + ("rows/s | " if stream else "")
              + "peak RSS MB | notes |",
              "|---|---|---:|---:|---:|" + ("---:|" if stream else "") + "---:|---|"]
        for r in results[ds["name"]]:
            status = r["status"].replace("|", "\\|")
            rss = "" if r.get("rss") is None else f"{r['rss']:.0f}"
            notes = r.get("notes", "").replace("|", "\\|")
            rate = ""
            if stream and r.get("train"):
                rate = f"{ds['n_train'] / r['train'] / 1e6:.2f} M | "
            elif stream:
                rate = " | "
            L.append(f"| {r['name']} | {status} | {fmt(r, 'auc')} | {fmt(r, 'ap')} | "
                     f"{fmt(r, 'train', 2)} | {rate}{rss} | {notes} |")
        ok = [r for r in results[ds["name"]] if r["status"] == "ok"]
        ours = [r for r in ok if r["name"].startswith("`auc`")]
        peers = [r for r in ok if not r["name"].startswith("`auc`") and not r.get("reference")]
        if ours and peers:
            bo = max(ours, key=lambda r: r["auc"])
            bp = max(peers, key=lambda r: r["auc"])
            L += ["", f"Best AUC of ours: {bo['name']} {bo['auc']:.3f} ({bo['train']:.2f} s); "
                  f"best peer: {bp['name']} {bp['auc']:.3f} ({bp['train']:.2f} s); difference "
                  f"{bo['auc'] - bp['auc']:+.3f}."]
            one = [r for r in ours if r.get("one_pass")]
            vw = [r for r in ok if r["name"] == PEERS[0][0]]
            if one and vw:
                b1 = max(one, key=lambda r: r["auc"])
                L[-1] += (f" Best one-pass learner of ours: {b1['name']} {b1['auc']:.3f} "
                          f"({b1['train']:.2f} s); {vw[0]['name']} {vw[0]['auc']:.3f} "
                          f"({vw[0]['train']:.2f} s); difference {b1['auc'] - vw[0]['auc']:+.3f}.")
            ref = [r for r in results[ds["name"]] if r.get("reference")]
            if ref:
                L[-1] += (f" Ranked by the generator's own probabilities, the test rows "
                          f"have AUC {ref[0]['auc']:.3f}: the room a learner has on this set.")
        L.append("")
    L += ["## The issue's earlier table", "",
          "Measured before this script existed, on a click-log file of the same shape "
          "(80,000 training rows, 20 one-hot fields, 260,298 features, 2.7 % positives; 20,000 "
          "test rows) that is not in the repository, with settings the issue does not all "
          "state. Kept for reference only; the click-log table above replaces it.", "",
          "| learner | AUC | train |", "|---|---:|---:|"]
    L += [f"| {n} | {x} | {t} |" for n, x, t in EARLIER]
    L += ["", "## Gaps and failures", ""]
    L += [f"- {g}" for g in gaps] if gaps else ["- none"]
    L.append("")
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text("\n".join(L))
    print(f"wrote {a.out}", file=sys.stderr)


# ======================================== main ================================================

def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--worker"]:
        worker(argv[1])
        return
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--auc", default=str(REPO / "target" / "release" / "auc"),
                   help="the auc binary (default <repo>/target/release/auc)")
    p.add_argument("--datasets", default=str(REPO.parent / "shared" / "datasets"),
                   help="folder of the shared data sets (a9a.libsvm, a9a.t.libsvm)")
    p.add_argument("--venv", default=str(REPO / "target" / "peers-venv"))
    p.add_argument("--work", default=None,
                   help="scratch folder for data, models, scores (default <repo>/target/wide, "
                   "or target/wide-quick with --quick)")
    p.add_argument("--out", default=None,
                   help="the page (default docs/results/wide.md; with --quick, "
                   "<work>/wide.md, so the committed page is not overwritten)")
    p.add_argument("--quick", action="store_true",
                   help="tiny sizes (5,000 rows), no stream: a check that everything runs")
    p.add_argument("--no-stream", action="store_true", help="skip the 10^6-row stream")
    p.add_argument("--stream-rows", type=int, default=1_000_000)
    p.add_argument("--timeout", type=float, default=1800.0, help="seconds per training run")
    p.add_argument("--skip-ours", default="", metavar="A,B",
                   help="rows of ours (names as in OURS) not run on any set: the table keeps "
                   "them as 'not run (--skip-ours)', so a run that leaves out the slowest "
                   "learners says so on the page")
    a = p.parse_args(argv)
    unknown = {x.strip() for x in a.skip_ours.split(",") if x.strip()} - {n for n, _ in OURS}
    if unknown:
        p.error(f"--skip-ours: not a row of ours: {', '.join(sorted(unknown))}")
    bootstrap(Path(a.venv), argv)

    command = "python3 benches/peers/wide.py" + ("" if not argv else " " + shlex.join(argv))
    started = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M")
    load0 = os.getloadavg()
    work = Path(a.work or REPO / "target" / ("wide-quick" if a.quick else "wide")).absolute()
    work.mkdir(parents=True, exist_ok=True)
    a.out = a.out or str(work / "wide.md" if a.quick else REPO / "docs" / "results" / "wide.md")
    a.auc = str(Path(a.auc).absolute())
    # The one-pass learners (families linear and kernel of `auc algos --json`): the issue's
    # target compares the best of them with VW.
    registry = json.loads(subprocess.run([a.auc, "algos", "--json"], capture_output=True,
                                         text=True, check=True).stdout)
    a.one_pass = {r["name"] for r in registry if r["family"] in ("linear", "kernel")}
    vers = versions(a.auc)
    gaps = []
    vw_err = os.environ.get("WIDE_VW_INSTALL_ERROR")
    if vw_err:
        gaps.append("Vowpal Wabbit could not be installed from wide-requirements.txt; pip said:"
                    "\n\n  ```\n" + "\n".join("  " + x for x in vw_err.splitlines())
                    + "\n  ```")

    help_text = subprocess.run([a.auc, "train", "--help"], capture_output=True,
                               text=True).stdout
    cross = "--cross-hash-bits" in help_text
    cross_help = ""
    if cross:
        lines = help_text.splitlines()
        for i, line in enumerate(lines):
            if "--cross-hash-bits" in line:
                nxt = [x.strip() for x in lines[i + 1:i + 3] if x.strip()]
                cross_help = "`auc train --help`: " + (nxt[0] if nxt else line.strip())
                break
    else:
        gaps.append("a9a with hashed pairwise crosses was not run: this `auc train --help` "
                    "does not mention `--cross-hash-bits` (the option is being added); plain "
                    "a9a is run instead. The script adds the row by itself once the option "
                    "exists.")

    n_train, n_test = (4000, 1000) if a.quick else (80000, 20000)
    datasets = []
    ctr, cte = work / "clicklog.train.libsvm", work / "clicklog.test.libsvm"
    print(f"writing the click log ({n_train} + {n_test} rows)", file=sys.stderr)
    write_clicklog(ctr, cte, n_train, n_test)
    datasets.append(prepare("clicklog", ctr, cte, work, "click log (generated, 260,298 features)"))

    a9a_tr, a9a_te = Path(a.datasets) / "a9a.libsvm", Path(a.datasets) / "a9a.t.libsvm"
    if a.quick:
        head_lines(a9a_tr, work / "a9a.train.libsvm", 5000)
        head_lines(a9a_te, work / "a9a.test.libsvm", 2000)
        a9a_tr, a9a_te = work / "a9a.train.libsvm", work / "a9a.test.libsvm"
    datasets.append(prepare("a9a", a9a_tr, a9a_te, work, "a9a"))
    if cross:
        d = prepare("a9a-cross", a9a_tr, a9a_te, work,
                    f"a9a with hashed pairwise crosses (2^{CROSS_BITS})")
        d["vw_bits"] = CROSS_BITS
        d["cross"] = True
        datasets.append(d)

    if not (a.quick or a.no_stream):
        str_tr, str_te = work / "stream.train.libsvm", work / "stream.test.libsvm"
        gen = str(REPO / "benches" / "gen_wide_sparse.py")
        print(f"writing the stream ({a.stream_rows} + 200000 rows)", file=sys.stderr)
        subprocess.run([sys.executable, gen, str(str_tr), "--rows", str(a.stream_rows),
                        "--seed", "1"], check=True)
        subprocess.run([sys.executable, gen, str(str_te), "--rows", "200000", "--seed", "2"],
                       check=True)
        d = prepare("stream", str_tr, str_te, work,
                    f"stream ({a.stream_rows:,} rows of gen_wide_sparse.py, 2^20 features)")
        d["dim"] = max(d["dim"], 1 << 20)
        d["vw_bits"] = vw_bits(d["dim"])
        d["stream"] = True
        datasets.append(d)
    else:
        gaps.append("The 10^6-row stream was not run (" +
                    ("--quick" if a.quick else "--no-stream") + ").")

    results = {}
    for ds in datasets:
        is_cross = ds.get("cross", False)
        rows = []
        skip = {x.strip() for x in a.skip_ours.split(",") if x.strip()}
        for name, args in OURS:
            if ds.get("stream") and name not in STREAM_OURS:
                continue
            if name in skip:
                rows.append({"name": f"`auc` {name}", "status": "not run (--skip-ours)"})
                continue
            r = run_ours(a, name, args, ds, work, is_cross)
            print(f"{ds['name']} {name}: {r['status']} {fmt(r, 'auc')} {fmt(r, 'train', 2)}",
                  file=sys.stderr)
            rows.append(r)
        if ds.get("stream"):
            for name in STREAM_OURS:
                r = run_ours(a, f"{name}, --scale none", ["--algo", name, "--scale", "none"],
                             ds, work, is_cross)
                print(f"{ds['name']} {name} --scale none: {r['status']} {fmt(r, 'auc')} "
                      f"{fmt(r, 'train', 2)}", file=sys.stderr)
                rows.append(r)
        for name, spec in PEERS:
            if ds.get("stream") and name not in STREAM_PEERS:
                continue
            r = run_peer(a, name, spec, ds, work, is_cross)
            print(f"{ds['name']} {name}: {r['status']} {fmt(r, 'auc')} {fmt(r, 'train', 2)}",
                  file=sys.stderr)
            rows.append(r)
        if ds["name"] in ("clicklog", "stream"):
            import numpy as np
            from sklearn.metrics import average_precision_score, roc_auc_score

            z = np.array(true_log_odds(ds["name"], ds["test"]))
            y = np.array(ds["test_labels"])
            rows.append({"name": "*the generator's true log-odds (reference, not a learner)*",
                         "status": "reference", "reference": True,
                         "auc": float(roc_auc_score(y, z)),
                         "ap": float(average_precision_score(y, z))})
        results[ds["name"]] = rows
        refused = [r["name"] for r in rows if r["status"].startswith("refused")]
        if refused:
            gaps.append(f"{ds['label']}: refused for memory: {', '.join(refused)}. These "
                        "learners keep p x p class moments (co-moments per label for the batch "
                        "ones), which at this p is far past --max-memory (the estimates are in "
                        "the table), so they stop before learning (their peak RSS is that of the first pass over the file). They run on this "
                        "data only with `--hash-bits` (folded features) or a low-rank summary; "
                        "this page runs `auc train` on the features as they are.")
        sketch = [r["name"] for r in rows if "unknown parameter sketch" in r["status"]]
        if sketch:
            gaps.append(f"{ds['label']}: {', '.join(sketch)}: this `auc` has no `sketch` "
                        "parameter yet (it is being added); the rows say so until the script "
                        "is run again with a binary that has it.")
        for r in rows:
            if r["status"] not in ("ok", "reference") and not r["status"].startswith("refused") \
                    and "unknown parameter sketch" not in r["status"] \
                    and not r["status"].startswith("not run (--skip-ours)"):
                gaps.append(f"{ds['label']}, {r['name']}: {r['status']}")
        for f in ("vw_train_w", "vw_train", "vw_test"):
            Path(ds[f]).unlink(missing_ok=True)
    if a.skip_ours:
        gaps.append(f"Not run in this run (`--skip-ours {a.skip_ours}`): their rows say "
                    "'not run'.")
    write_page(a, command, started, load0, datasets, results, gaps, cross_help, vers)


if __name__ == "__main__":
    main()
