"""The Ray example: sharded over Ray, the scores are the published ones and
the same as solving in one process."""

import os
from pathlib import Path

import pytest

import ray_batch

BATCH = Path(__file__).resolve().parents[3] / "testdata" / "connect4" / "Test_L3_R1"


@pytest.fixture(scope="module")
def ray_cluster():
    import ray
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_sharded_scores_are_the_published_scores(ray_cluster):
    lines = ray_batch.read_batch(str(BATCH), limit=24)
    sharded = ray_batch.solve_with_ray(lines, 4)
    assert [m for m, _, _ in sharded] == [m for m, _ in lines], "results come back in the batch's order"
    assert [s for _, s, _ in sharded] == [e for _, e in lines]
    assert sharded == ray_batch.solve_shard(lines), "sharding changes nothing, nodes included"


def test_shards_cover_the_batch_once():
    lines = [(str(i), None) for i in range(10)]
    parts = ray_batch.shards(lines, 4)
    assert [len(p) for p in parts] == [3, 3, 2, 2]
    assert [x for p in parts for x in p] == lines
    assert ray_batch.shards(lines[:2], 4) == [[lines[0]], [lines[1]]]


def test_a_bad_batch_line_is_named(tmp_path):
    bad = tmp_path / "bad"
    bad.write_text("4453 0\n44 1 2\n")
    with pytest.raises(ValueError, match="line 2"):
        ray_batch.read_batch(str(bad))
