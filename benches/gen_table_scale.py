#!/usr/bin/env python3
"""Write the scale run's 10^6-row numeric data set as a table, in CSV and in Parquet.

The rows are those of benches/peers/gen_nonlinear_stream.py (the generated nonlinear problem of
docs/results/nonlinear-scale.md: 20 features uniform on [-1, 1], about 10 % positive), written
with the same `%.6g` numbers as its LIBSVM file, under a header `x1,...,x20,label` (label -1 or
1). The Parquet file holds the same values: each chunk's CSV text is parsed back by pyarrow and
written as one row group (float64 features, int8 label; pyarrow's default snappy pages), so a
model trained on either file is the same model (docs/results/performance.md, "Parquet and Arrow
IPC input"). Memory stays one chunk.

    python benches/gen_table_scale.py --rows 1000000 --out target/table-scale/scale
    # writes target/table-scale/scale.csv and target/table-scale/scale.parquet

Needs numpy and pyarrow.
"""

import argparse
import io
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

sys.path.insert(0, str(Path(__file__).resolve().parent / "peers"))
from gen_nonlinear_stream import Rule  # noqa: E402


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", type=int, default=1_000_000)
    p.add_argument("--features", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rule-seed", type=int, default=0)
    p.add_argument("--chunk-rows", type=int, default=100_000)
    p.add_argument("--out", required=True, help="path without extension")
    a = p.parse_args(argv)
    out = Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    rule = Rule(a.features, a.rule_seed, 0.10, 0.3)
    rows_rng = np.random.default_rng(np.random.SeedSequence([a.seed, 0xDA7A]))
    names = [f"x{j}" for j in range(1, a.features + 1)] + ["label"]
    header = ",".join(names) + "\n"
    row_fmt = ",".join(["%.6g"] * a.features) + ",%d"
    types = {n: pa.float64() for n in names[:-1]}
    types["label"] = pa.int8()
    schema = pa.schema([(n, types[n]) for n in names])
    written = 0
    with open(out.with_suffix(".csv"), "w", encoding="ascii") as fh, \
            pq.ParquetWriter(out.with_suffix(".parquet"), schema) as pw:
        fh.write(header)
        while written < a.rows:
            n = min(a.chunk_rows, a.rows - written)
            x = rows_rng.uniform(-1.0, 1.0, size=(n, a.features))
            score = rule.clean_score(x) + rows_rng.normal(0.0, rule.noise_sd, n)
            label = np.where(score > rule.threshold, 1, -1)
            buf = io.StringIO()
            np.savetxt(buf, np.column_stack([x, label]), fmt=row_fmt)
            text = buf.getvalue()
            fh.write(text)
            table = pacsv.read_csv(
                io.BytesIO((header + text).encode("ascii")),
                convert_options=pacsv.ConvertOptions(column_types=types),
            )
            pw.write_table(table.select(names), row_group_size=n)
            written += n
    print(f"wrote {written} rows to {out.with_suffix('.csv')} and {out.with_suffix('.parquet')}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
