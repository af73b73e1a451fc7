"""Tables as users hold them (SPEC 11), converted column by column into what the Rust table layer
takes: a float64 array (NaN is missing) for a numeric column, a list of ``str`` or ``None`` for
any other column (text, categories, booleans).

Which inputs are tables: pandas and polars DataFrames, pyarrow Tables and RecordBatches, and dense
arrays that hold NaN or are not numeric (object or string arrays). Plain numeric arrays without
NaN and sparse matrices are not: the estimators read them as before, with no schema.

Conversion rules, the same for every library:

- numbers (ints, floats, decimals, their nullable forms) are numeric columns, null and NaN
  missing;
- booleans are text, ``"True"`` and ``"False"`` (as pandas writes them to a CSV file);
- text, categories and dictionary columns are text, compared exactly after trimming spaces; an
  empty text is missing; a number among text is written as the CSV reader keys it (``3``,
  ``1.5``);
- dates, times and durations are refused, naming the column: there is no one number they mean.

Nothing here imports pandas, polars or pyarrow: an input is one of theirs only if its module is
already loaded.
"""

from __future__ import annotations

import decimal
import math
import numbers
import sys

import numpy as np
import scipy.sparse as sp

#: The label column's names tried in turn when ``y`` has no name of its own (the CLI's).
LABEL_NAMES = ("label", "class", "target", "y", "outcome", "response")


def _module(name: str):
    return sys.modules.get(name)


def is_frame(X) -> bool:
    """Whether ``X`` is a pandas or polars DataFrame or a pyarrow Table or RecordBatch."""
    pd, pl, pa = _module("pandas"), _module("polars"), _module("pyarrow")
    return (
        (pd is not None and isinstance(X, pd.DataFrame))
        or (pl is not None and isinstance(X, pl.DataFrame))
        or (pa is not None and isinstance(X, (pa.Table, pa.RecordBatch)))
    )


def is_table(X) -> bool:
    """Whether ``X`` goes through a table's schema: a data frame, or a dense array that holds
    NaN or is not numeric."""
    if is_frame(X):
        return True
    if sp.issparse(X) or X is None:
        return False
    if not isinstance(X, np.ndarray):
        pl = _module("polars")
        if pl is not None and isinstance(X, pl.LazyFrame):
            raise TypeError("X is a polars LazyFrame: collect() it into a DataFrame first")
        if not isinstance(X, (list, tuple)):
            return False
        try:
            X = np.asarray(X)
        except (ValueError, TypeError):
            return False
    if X.ndim != 2:
        return False
    if X.dtype.kind in "OUSMm":
        return True
    return X.dtype.kind == "f" and bool(np.isnan(X).any())


def floats(a) -> np.ndarray:
    """A numeric column as the table layer reads it in place: float64, contiguous and aligned
    (an array rebuilt from a network buffer, as Dask's, may be misaligned)."""
    return np.require(a, dtype=np.float64, requirements=("C", "A"))


def number_text(x) -> str:
    """A number as the CSV reader keys it: integers without a point, others in shortest form."""
    x = float(x)
    if x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    return repr(x)


def _is_missing(v) -> bool:
    if v is None:
        return True
    if isinstance(v, float):
        return math.isnan(v)
    if isinstance(v, np.floating):
        return bool(np.isnan(v))
    pd = _module("pandas")
    return pd is not None and (v is pd.NA or v is pd.NaT)


def _dated(v) -> bool:
    import datetime

    kinds = (datetime.date, datetime.time, datetime.timedelta, np.datetime64, np.timedelta64)
    return isinstance(v, kinds)


def _refuse_dates(name: str, what: str):
    return TypeError(
        f"column {name!r} holds {what}: convert it to numbers (days since a date, hours of the "
        "day, seconds) or to text before fitting"
    )


def _text(v, name: str):
    """The text of one non-missing value of a text column."""
    if isinstance(v, str):
        return v
    if isinstance(v, (bool, np.bool_)):
        return "True" if v else "False"
    if isinstance(v, numbers.Real):
        if not math.isfinite(float(v)):
            raise ValueError(f"column {name!r}: {v} is not a value a feature can take")
        return number_text(v)
    if _dated(v):
        raise _refuse_dates(name, f"dates or times ({type(v).__name__})")
    try:
        float(v)
    except (TypeError, ValueError) as e:
        raise TypeError(
            f"column {name!r} holds {v!r}, which is neither a number, text, a boolean nor "
            f"missing ({e})"
        ) from e
    return number_text(float(v))


def _is_number(v) -> bool:
    """Whether a present value is a number (a boolean is not)."""
    return isinstance(v, (numbers.Real, decimal.Decimal)) and not isinstance(v, (bool, np.bool_))


def object_column(values, name: str):
    """A column of Python objects: numbers when every present value is a number (not a
    boolean), else text."""
    values = list(values)
    present = [v for v in values if not _is_missing(v)]
    if all(_is_number(v) for v in present):
        return np.array([np.nan if _is_missing(v) else float(v) for v in values], dtype=np.float64)
    return [None if _is_missing(v) else _text(v, name) for v in values]


def _bools(values) -> list:
    return [None if _is_missing(v) else ("True" if v else "False") for v in values]


def _pandas_column(s, name: str):
    pd = _module("pandas")
    t = pd.api.types
    dtype = s.dtype
    if isinstance(dtype, pd.SparseDtype):
        return _pandas_column(s.sparse.to_dense(), name)
    if t.is_datetime64_any_dtype(dtype) or t.is_timedelta64_dtype(dtype) or isinstance(
        dtype, pd.PeriodDtype
    ):
        raise _refuse_dates(name, f"dates or times ({dtype})")
    if t.is_bool_dtype(dtype):
        return _bools(s.to_numpy(dtype=object))
    if isinstance(dtype, pd.CategoricalDtype):
        return [None if _is_missing(v) else _text(v, name) for v in s.to_numpy(dtype=object)]
    if t.is_complex_dtype(dtype):
        raise TypeError(f"column {name!r} holds complex numbers")
    if t.is_numeric_dtype(dtype):
        return floats(s.to_numpy(dtype=np.float64, na_value=np.nan))
    if t.is_object_dtype(dtype) or t.is_string_dtype(dtype):
        return object_column(s.to_numpy(dtype=object), name)
    raise TypeError(f"column {name!r} has the type {dtype}, which auclearn does not read")


def _polars_column(s, name: str):
    pl = _module("polars")
    dtype = s.dtype
    if dtype.is_temporal():
        raise _refuse_dates(name, f"dates or times ({dtype})")
    if dtype == pl.Boolean:
        return _bools(s.to_list())
    if dtype == pl.Null:
        return np.full(len(s), np.nan)
    if dtype.is_numeric():
        return floats(s.cast(pl.Float64).fill_null(float("nan")).to_numpy())
    if dtype in (pl.String, pl.Categorical) or isinstance(dtype, (pl.Categorical, pl.Enum)):
        return [None if v is None else v for v in s.cast(pl.String).to_list()]
    raise TypeError(f"column {name!r} has the type {dtype}, which auclearn does not read")


def _arrow_column(col, name: str):
    pa = _module("pyarrow")
    import pyarrow.compute as pc
    import pyarrow.types as pat

    t = col.type
    if pat.is_temporal(t):
        raise _refuse_dates(name, f"dates or times ({t})")
    if pat.is_boolean(t):
        return _bools(col.to_pylist())
    if pat.is_null(t):
        return np.full(len(col), np.nan)
    if pat.is_integer(t) or pat.is_floating(t) or pat.is_decimal(t):
        filled = pc.fill_null(pc.cast(col, pa.float64()), float("nan"))
        return floats(filled.to_numpy())
    if pat.is_string(t) or pat.is_large_string(t) or pat.is_dictionary(t) or (
        hasattr(pat, "is_string_view") and pat.is_string_view(t)
    ):
        return [None if _is_missing(v) else _text(v, name) for v in col.to_pylist()]
    raise TypeError(f"column {name!r} has the type {t}, which auclearn does not read")


def _unique_names(names: list) -> None:
    seen = set()
    for n in names:
        if n in seen:
            raise ValueError(
                f"two columns of X are named {n!r}: a table's columns have one name each"
            )
        seen.add(n)


def frame_columns(X):
    """``(names, columns, named)`` of a data frame: its columns' names (as text), their
    converted values, and whether every name was a string (scikit-learn then sets
    ``feature_names_in_``)."""
    pd, pl = _module("pandas"), _module("polars")
    if pd is not None and isinstance(X, pd.DataFrame):
        raw = list(X.columns)
        names = [str(c) for c in raw]
        _unique_names(names)
        columns = [_pandas_column(X.iloc[:, j], names[j]) for j in range(len(names))]
        return names, columns, all(isinstance(c, str) for c in raw)
    if pl is not None and isinstance(X, pl.DataFrame):
        names = list(X.columns)
        return names, [_polars_column(X.to_series(j), n) for j, n in enumerate(names)], True
    names = list(X.schema.names)
    _unique_names(names)
    return names, [_arrow_column(X.column(j), n) for j, n in enumerate(names)], True


def array_columns(X, names: list, who: str = "this estimator"):
    """The columns of a dense 2-D array, named ``names`` by position (``who`` expects them)."""
    X = np.asarray(X)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D (rows, columns), not of shape {X.shape}")
    if X.shape[1] != len(names):
        raise ValueError(
            f"X has {X.shape[1]} features, but {who} is expecting {len(names)} features as input"
        )
    if X.dtype.kind in "Mm":
        raise _refuse_dates(names[0] if names else "x0", f"dates or times ({X.dtype})")
    if X.dtype.kind in "fiub":
        return [floats(X[:, j]) for j in range(X.shape[1])]
    return [object_column(X[:, j], n) for j, n in enumerate(names)]


def positional_names(p: int) -> list:
    """The names of an array's unnamed columns: ``x0``, ``x1``, ..."""
    return [f"x{j}" for j in range(p)]


def table_columns(X):
    """``(names, columns, named)`` of any table input: a data frame's columns by name, an
    array's by position (``x0``, ``x1``, ...)."""
    if is_frame(X):
        return frame_columns(X)
    X = np.asarray(X)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D (rows, columns), not of shape {X.shape}")
    names = positional_names(X.shape[1])
    return names, array_columns(X, names), False


def n_rows(columns: list) -> int:
    return len(columns[0]) if columns else 0


def label_values(y):
    """``(values, name)``: the labels as a 1-D numpy array of the user's values (a pandas, polars
    or pyarrow column read as numbers, booleans or objects) and the column's name when it has
    one. A missing label raises ``ValueError`` naming the row."""
    name = None
    pd, pl, pa = _module("pandas"), _module("polars"), _module("pyarrow")
    if pd is not None and isinstance(y, pd.DataFrame) and y.shape[1] == 1:
        y = y.iloc[:, 0]
    if pd is not None and isinstance(y, pd.Series):
        name = y.name if isinstance(y.name, str) else None
        t = pd.api.types
        if isinstance(y.dtype, pd.CategoricalDtype) or not (
            t.is_numeric_dtype(y.dtype) or t.is_bool_dtype(y.dtype)
        ):
            values = y.to_numpy(dtype=object)
        elif y.isna().any():
            values = y.to_numpy(dtype=object, na_value=None)
        else:
            values = y.to_numpy()
    elif pl is not None and isinstance(y, pl.Series):
        name = y.name or None
        values = np.array(y.to_list(), dtype=object) if y.null_count() else y.to_numpy()
    elif pa is not None and isinstance(y, (pa.Array, pa.ChunkedArray)):
        values = np.array(y.to_pylist(), dtype=object)
    else:
        values = np.asarray(y)
    if values.ndim == 2 and values.shape[1] == 1:
        values = values.ravel()
    if values.dtype.kind == "O":
        present = [v for v in values if not _is_missing(v)]
        if len(present) < len(values):
            row = next(i for i, v in enumerate(values) if _is_missing(v))
            raise ValueError(
                f"y: row {row} has no label (None or NaN): a row without a label cannot train"
            )
        if all(isinstance(v, (bool, np.bool_)) for v in present):
            values = values.astype(bool)
        elif all(_is_number(v) for v in present):
            values = values.astype(np.float64)
        elif all(isinstance(v, str) for v in present):
            values = values.astype(str).astype(object)
    elif values.dtype.kind == "f" and values.ndim == 1 and np.isnan(values).any():
        row = int(np.argmax(np.isnan(values)))
        raise ValueError(f"y: row {row} has no label (NaN): a row without a label cannot train")
    return values, name


def label_column(values: np.ndarray, name: str):
    """The labels as the table layer takes a column."""
    if values.dtype.kind in "iuf":
        return floats(values)
    if values.dtype.kind == "b":
        return _bools(values.tolist())
    return object_column(values.tolist(), name)


def label_name(given, names: list) -> str:
    """The label column's name: ``y``'s own when it has one no feature column has, else the
    first of ``LABEL_NAMES`` no feature column has."""
    taken = {n.strip().lower() for n in names}
    for n in ([given] if given else []) + list(LABEL_NAMES):
        if n.strip().lower() not in taken:
            return n
    k = 1
    while f"label_{k}" in taken:
        k += 1
    return f"label_{k}"


def positive_word(value) -> str:
    """A label value as the table layer's ``positive`` takes it."""
    if isinstance(value, (bool, np.bool_)):
        return "True" if value else "False"
    if isinstance(value, numbers.Real):
        return number_text(value)
    return str(value).strip()
