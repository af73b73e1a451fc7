"""Moments of mapped rows and the survey a map is fitted on, without Dask: surveys of parts
merged fit the transform of the whole, byte for byte (past the map's 10,000-row sample too);
mapped moments of parts merged fit the in-memory estimator with the same map; summaries of
other stages do not merge; a mapped moment file from Python trains in the CLI to the same
scores."""

import subprocess

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.exceptions import NotFittedError

import auclearn
from auclearn import FeatureMap, OPAUCbatch, _native, moments

from conftest import blobs, cli_scores, write_libsvm

TOL = 1e-10


def rel_diff(a, b):
    return float(np.max(np.abs(a - b)) / np.max(np.abs(b)))


def data(n=600, sparse=False):
    X, y = blobs(n=n, p=6, seed=5)
    if sparse:
        rng = np.random.default_rng(7)
        X = sp.csr_matrix(X * (rng.random(X.shape) < 0.4))
    return X, y


def native(X):
    return auclearn._base._as_native(X)


def survey_of_parts(X, cuts, scale, features, sigma, seed):
    parts = [
        _native.map_sample(native(X[a:b]), scale, features, sigma, seed)
        for a, b in zip(cuts[:-1], cuts[1:])
    ]
    if len(parts) == 1:
        return _native.merge_map_samples(parts)
    # Merged in a tree other than the order of the rows.
    left = _native.merge_map_samples(parts[: len(parts) // 2][::-1])
    right = _native.merge_map_samples(parts[len(parts) // 2 :])
    return _native.merge_map_samples([right, left])


@pytest.mark.parametrize(
    "scale,features,sigma",
    [
        ("none", "nystroem:40", "scale"),
        ("minmax", "nystroem:40", "median"),
        ("maxabs", "rff:32", "scale"),
        ("auto", "elm:16", "2.0"),
    ],
)
@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "sparse"])
def test_surveys_of_parts_fit_the_transform_of_the_whole(scale, features, sigma, sparse):
    X, _ = data(sparse=sparse)
    whole = _native.Transform.fit(native(X), scale, features, sigma, 4).to_bytes()
    for cuts in ([0, 600], [0, 200, 200, 450, 600], [0, 1, 50, 300, 599, 600]):
        survey = survey_of_parts(X, cuts, scale, features, sigma, 4)
        got = _native.Transform.fit_from_sample(survey, scale, features, sigma, 4)
        assert got.to_bytes() == whole
        assert got.input_dim == 6


def test_surveys_past_the_map_sample_keep_the_same_rows():
    """12,000 rows: the sample keeps 10,000 by content, whichever part they come from."""
    rng = np.random.default_rng(2)
    X = rng.normal(size=(12_000, 4))
    whole = _native.Transform.fit(X, "minmax", "rff:16", "scale", 9).to_bytes()
    survey = survey_of_parts(X, [0, 5_000, 5_001, 12_000], "minmax", "rff:16", "scale", 9)
    assert _native.Transform.fit_from_sample(survey, "minmax", "rff:16", "scale", 9).to_bytes() == whole
    other = _native.Transform.fit(X[::-1].copy(), "minmax", "rff:16", "scale", 9).to_bytes()
    assert other == whole


def test_bad_surveys_are_refused():
    X, _ = data()
    a = _native.map_sample(X[:300], "minmax", "rff:8", None, 1)
    with pytest.raises(ValueError, match="other seeds"):
        _native.merge_map_samples([a, _native.map_sample(X[300:], "minmax", "rff:8", None, 2)])
    with pytest.raises(ValueError, match="feature ranges"):
        _native.merge_map_samples([a, _native.map_sample(X[300:], "none", "rff:8", None, 1)])
    with pytest.raises(ValueError, match="the same columns"):
        _native.merge_map_samples([a, _native.map_sample(X[300:, :5], "minmax", "rff:8", None, 1)])
    with pytest.raises(ValueError, match="seed 1 .* seed 2"):
        _native.Transform.fit_from_sample(a, "minmax", "rff:8", None, 2)
    with pytest.raises(ValueError, match="no feature ranges"):
        _native.Transform.fit_from_sample(
            _native.map_sample(X, "none", "rff:8", None, 1), "minmax", "rff:8", None, 1
        )
    with pytest.raises(ValueError, match="at least one row"):
        _native.Transform.fit_from_sample(
            _native.map_sample(X[:0], "none", "rff:8", None, 1), "none", "rff:8", None, 1
        )
    with pytest.raises(ValueError, match="not a survey's bytes"):
        _native.Transform.fit_from_sample(a[:-3], "minmax", "rff:8", None, 1)
    with pytest.raises(ValueError, match="not a survey's bytes"):
        _native.merge_map_samples([b"auclearn-transf\0" + a[16:]])


@pytest.mark.parametrize("scale", ["none", "minmax"])
@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "sparse"])
def test_mapped_moments_of_parts_merged_fit_the_in_memory_estimator(scale, sparse):
    X, y = data(sparse=sparse)
    want = OPAUCbatch(features="nystroem", n_features_map=40, scale=scale, seed=3).fit(X, y)
    fm = FeatureMap("nystroem", 40, scale=scale, seed=3).fit(X)
    halves = [
        moments.summarize(X[:250], y[:250], source="a", stages=fm),
        moments.summarize(X[250:], y[250:], source="b", stages=fm.map_),
    ]
    merged = moments.merge(*halves)
    whole = moments.summarize(X, y, stages=fm.to_bytes())
    about = moments.info(merged)
    assert about.n_rows == 600 and about.sources == ["a", "b"]
    assert about.n_features == fm.n_components_
    assert about.stages.to_bytes() == fm.to_bytes()
    assert moments.info(moments.summarize(X, y)).stages is None
    fits = [moments.fit("opauc-batch", s) for s in (merged, whole)]
    for got in fits:
        assert rel_diff(got.scores(X), want.scores(X)) <= TOL
        assert got.model_.feature_map == want.model_.feature_map
        assert got.model_.scaling == want.model_.scaling
        assert got.model_.seed == 3 and got.n_features_in_ == 6
        params = got.get_params()
        assert (params["features"], params["n_features_map"], params["scale"]) == (
            "nystroem",
            40,
            scale,
        )
    # The scaling is in the stages: a scale given here is not applied again (as `auc train`).
    again = moments.fit("opauc-batch", merged, scale="maxabs")
    np.testing.assert_array_equal(again.scores(X), fits[0].scores(X))


def test_mapped_and_unmapped_moments_do_not_merge():
    X, y = data()
    fm = FeatureMap("rff", 16, seed=1).fit(X)
    mapped = moments.summarize(X[:300], y[:300], source="mapped part", stages=fm)
    plain = moments.summarize(X[300:], y[300:], source="plain part")
    for pair in ((mapped, plain), (plain, mapped)):
        with pytest.raises(ValueError, match="prepared differently.*rows as read"):
            moments.merge(*pair)
    other = moments.summarize(X[300:], y[300:], stages=FeatureMap("rff", 16, seed=2).fit(X))
    with pytest.raises(ValueError, match="prepared differently.*rff:16"):
        moments.merge(mapped, other)


def test_bad_stages_are_refused():
    X, y = data()
    with pytest.raises(NotFittedError):
        moments.summarize(X, y, stages=FeatureMap("rff", 8))
    with pytest.raises(TypeError, match="stages must be a fitted auclearn.FeatureMap"):
        moments.summarize(X, y, stages="rff")
    with pytest.raises(ValueError, match="hold no feature map"):
        moments.summarize(X, y, stages=_native.Transform.fit(X, "minmax"))
    fm = FeatureMap("rff", 8).fit(X)
    with pytest.raises(ValueError, match="5 features, but the feature map was fitted with 6"):
        moments.summarize(X[:, :5], y, stages=fm)
    with pytest.raises(ValueError, match="not a transform's bytes"):
        moments.summarize(X, y, stages=b"nonsense")
    with pytest.raises(ValueError, match="fitted on rows, not on their moments"):
        moments.fit("opauc-batch", moments.summarize(X, y), features="rff")


def test_a_mapped_moment_file_trains_in_the_cli_to_pythons_scores(auc_bin, tmp_path):
    X, y01 = data()
    y = np.where(y01 == 1, 1, -1)
    fm = FeatureMap("nystroem", 40, scale="minmax", seed=5).fit(X)
    part = tmp_path / "part.mom"
    part.write_bytes(moments.summarize(X, y, stages=fm))
    model = tmp_path / "m.auc"
    subprocess.run(
        [auc_bin, "train", "--algo", "opauc-batch", str(part), "-o", str(model)],
        check=True,
        capture_output=True,
    )
    py = moments.fit("opauc-batch", part.read_bytes())
    cli = auclearn.load(model)
    assert cli.model_.feature_map == py.model_.feature_map
    assert rel_diff(cli.scores(X), py.scores(X)) <= TOL
    write_libsvm(tmp_path / "x.svm", X, y)
    printed = cli_scores(auc_bin, model, tmp_path / "x.svm", tmp_path)
    assert rel_diff(printed, py.scores(X)) <= TOL
    want = OPAUCbatch(features="nystroem", n_features_map=40, scale="minmax", seed=5).fit(X, y)
    assert rel_diff(py.scores(X), want.scores(X)) <= TOL
