"""Writes the table fixtures of crates/auc-cli/tests/tables.rs (run from this folder):
applicants.csv, a small credit-like table with a string label, quoted strings, empty cells and
missing-value tokens; applicants_new.csv, its first 12 rows without the label, columns
reordered and one extra column, as a deployed model receives them."""
import csv
import random

rng = random.Random(7)
rows = []
for i in range(80):
    age = rng.randint(19, 70)
    employment = rng.choice(["salaried", "self-employed", "unemployed", "retired, pension"])
    region = rng.choice(["north", "south", "east", "west"]) if i != 41 else "islands"
    debt = round(rng.uniform(0, 9), 2)
    risk = debt / 3 + (employment == "unemployed") * 1.5 - age / 40 + rng.gauss(0, 0.7)
    status = "bad" if risk > 1.0 else "good"
    age_s = "" if i % 9 == 4 else ("NA" if i % 13 == 6 else str(age))
    employment_s = "?" if i % 17 == 3 else employment
    rows.append({"age": age_s, "employment": employment_s, "region": region,
                 "debt": debt, "Status": status})

with open("applicants.csv", "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=["age", "employment", "region", "debt", "Status"],
                       quoting=csv.QUOTE_NONNUMERIC)
    w.writeheader()
    w.writerows(rows)

with open("applicants_new.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["debt", "region", "note", "employment", "age"])
    for r in rows[:12]:
        w.writerow([r["debt"], r["region"], "x", r["employment"], r["age"]])
