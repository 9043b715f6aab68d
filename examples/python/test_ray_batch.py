"""The Ray batch example writes what `ply solve connect4 --batch` writes:
the same lines in the same order (the time column aside), the same summary."""

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ray_batch  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
PLY = Path(os.environ.get("PLY_BIN", ROOT / "target" / "release" / "ply"))


def without_times(lines):
    """Batch output with the microseconds column and the mean time left out."""
    out = []
    for line in lines:
        if line.startswith("positions "):
            parts = line.split(", ")
            out.append(", ".join(p for p in parts if not p.startswith("mean time")))
        else:
            out.append(" ".join(line.split()[:3]))
    return out


@pytest.fixture(scope="module")
def ray_local():
    import ray

    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_the_same_lines_as_the_batch_command(ray_local, tmp_path):
    source = (ROOT / "testdata" / "connect4" / "Test_L2_R1").read_text().splitlines()[:16]
    # A comment, a blank line, a wrong expectation, a bad line and a finished game, as users write them.
    text = "\n".join(["# a small file"] + source[:8] + ["", source[8].split()[0] + " 99", "44x", "4455667"] + source[9:]) + "\n"
    batch = tmp_path / "batch.txt"
    batch.write_text(text)
    assert PLY.exists(), f"{PLY} is missing: cargo build --release -p ply-cli (or set PLY_BIN)"
    cli = subprocess.run([str(PLY), "solve", "connect4", "--batch", str(batch)], capture_output=True, text=True)
    positions, bad = ray_batch.read_batch(text, str(batch))
    answers = ray_batch.solve_with_ray("connect4", positions, 4, None, None)
    out = io.StringIO()
    status = ray_batch.report(str(batch), positions, answers, bad, out=out)
    assert without_times(out.getvalue().splitlines()) == without_times(cli.stdout.splitlines())
    assert (status != 0) == (cli.returncode != 0)
    assert "mismatches 1, bad lines 2" in out.getvalue()


def test_chunks_cover_the_file_once():
    positions = [(i, str(i), None) for i in range(10)]
    parts = ray_batch.chunks(positions, 4)
    assert [len(p) for p in parts] == [4, 4, 2]
    assert [x for p in parts for x in p] == positions


def test_bad_lines_are_named_as_the_batch_command_names_them():
    positions, bad = ray_batch.read_batch("4453 0\n44 1 2\n# c\n\n4 x\n", "f")
    assert positions == [(1, "4453", 0)]
    assert bad == ["error: f: line 2: unexpected '2' after the score",
                   "error: f: line 5: expected score 'x' is not an integer"]
