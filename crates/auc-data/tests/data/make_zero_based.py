"""Writes the fixtures of the 0-based LIBSVM tests (crates/auc-data/tests/zero_based.rs) with
scikit-learn's own writer, so that the tests read what users of scikit-learn hand to auc:

- zero_based.libsvm: ``dump_svmlight_file`` with its defaults (0-based indices, so feature 0
  is written as index 0), with the comment lines it writes at the top;
- one_based.libsvm: the same rows written 1-based (``zero_based=False``);
- zero_based.expected.csv: the rows as a dense matrix, the label first, then the features in
  order: what either file must read as.

Run from this folder with a Python that has scikit-learn: ``python make_zero_based.py``.
"""

import numpy as np
from sklearn.datasets import dump_svmlight_file

# Feature 0 is non-zero in some rows; one row has no feature at all; the last feature is
# non-zero once, so both files give the dimension 5.
X = np.array(
    [
        [1.0, 0.0, 0.5, 0.0, 0.0],
        [0.0, 2.0, 0.0, -1.25, 0.0],
        [0.0, 0.0, 0.0, 0.0, 0.0],
        [3.0, 0.0, 0.0, 0.0, 4.5],
        [0.0, 0.75, 1.0, 0.0, 0.0],
        [-2.0, 0.0, 0.0, 8.0, 0.0],
    ]
)
y = np.array([1, 0, 0, 1, 0, 1])

dump_svmlight_file(X, y, "zero_based.libsvm", comment="rows of the auc-data 0-based tests")
dump_svmlight_file(X, y, "one_based.libsvm", zero_based=False)
np.savetxt(
    "zero_based.expected.csv",
    np.column_stack([y, X]),
    delimiter=",",
    fmt="%g",
    header="label,f0,f1,f2,f3,f4",
    comments="",
)
