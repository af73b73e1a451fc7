"""Writes the Parquet and Arrow IPC fixtures of crates/auc-cli/tests/columnar.rs and
crates/auc-data/tests/columnar.rs with pyarrow (run from this folder, after make_tables.py):

- applicants.parquet: the rows of applicants.csv as typed columns (age int64 and employment a
  dictionary of strings, their missing cells null; region a string, debt a float64, Status the
  string label), in row groups of 32 rows, so a model trained on either file is the same;
- applicants_new.parquet: its first 12 rows without the label, columns reordered, and an extra
  column of a type no table reads (a list), which scoring ignores as it ignores any extra column;
- cells.parquet (snappy pages, row groups of 8) and cells.feather (Arrow IPC file, lz4): every
  kind of cell, numbers with nulls and NaN, integers, strings with nulls and an empty string,
  a dictionary, booleans with a null, and a string label yes/no;
- nested.parquet and binary.parquet: a list column and a binary column beside numbers and a
  label, which training refuses, naming the column and its type.
"""
import csv

import pyarrow as pa
import pyarrow.feather as feather
import pyarrow.parquet as pq

with open("applicants.csv", newline="") as f:
    rows = list(csv.DictReader(f))


def number_or_none(text, cast):
    return None if text in ("", "NA") else cast(text)


applicants = pa.table({
    "age": pa.array([number_or_none(r["age"], int) for r in rows], pa.int64()),
    "employment": pa.array([None if r["employment"] == "?" else r["employment"] for r in rows],
                           pa.string()).dictionary_encode(),
    "region": pa.array([r["region"] for r in rows], pa.string()),
    "debt": pa.array([float(r["debt"]) for r in rows], pa.float64()),
    "Status": pa.array([r["Status"] for r in rows], pa.string()),
})
pq.write_table(applicants, "applicants.parquet", row_group_size=32)

new = applicants.slice(0, 12)
pq.write_table(pa.table({
    "debt": new["debt"],
    "region": new["region"],
    "note": pa.array([[i, i + 1] for i in range(12)], pa.list_(pa.int32())),
    "employment": new["employment"],
    "age": new["age"],
}), "applicants_new.parquet")

n = 24
cells = pa.table({
    "x": pa.array([None if i == 3 else (float("nan") if i == 5 else i / 4 - 2) for i in range(n)],
                  pa.float64()),
    "count": pa.array([None if i == 7 else i % 5 for i in range(n)], pa.int32()),
    "color": pa.array([None if i == 2 else ("" if i == 9 else ["red", "green", "blue"][i % 3])
                       for i in range(n)], pa.string()),
    "size": pa.array([["S", "M", "L"][i % 3] if i != 11 else None for i in range(n)],
                     pa.string()).dictionary_encode(),
    "flag": pa.array([None if i == 4 else i % 2 == 0 for i in range(n)], pa.bool_()),
    "label": pa.array(["yes" if (i % 3 == 0 or i % 7 == 1) else "no" for i in range(n)],
                      pa.string()),
})
pq.write_table(cells, "cells.parquet", row_group_size=8, compression="snappy")
feather.write_feather(cells, "cells.feather", compression="lz4")

base = {"x": pa.array([0.5, -1.0, 2.0, 0.0], pa.float64()),
        "label": pa.array([1, 0, 1, 0], pa.int8())}
pq.write_table(pa.table({**base, "tags": pa.array([[1], [], [2, 3], None],
                                                   pa.list_(pa.int64()))}), "nested.parquet")
pq.write_table(pa.table({**base, "blob": pa.array([b"\x00", b"\x01", b"", None],
                                                   pa.binary())}), "binary.parquet")
