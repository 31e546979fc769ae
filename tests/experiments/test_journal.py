"""A journaled parallel map: a killed run's finished jobs are not run again."""
import json
import math

from experiments import parallel
from experiments.journal import job_key, journaled_map


def _run_job(fn, args):
    return fn(*args)


def _square(x):
    return {"x": x, "sq": x * x}


def _never(x):
    raise AssertionError(f"job {x} ran although the journal holds it")


def test_a_resumed_map_runs_only_the_jobs_its_journal_lacks(tmp_path):
    path = tmp_path / "jobs.jsonl"
    jobs = [(_square, (x,)) for x in range(6)]
    with parallel.using("joblib", workers=1):
        first = journaled_map(_run_job, jobs, path)
    assert first == [{"x": x, "sq": x * x} for x in range(6)]
    lines = path.read_text().splitlines()
    assert len(lines) == 6
    # a kill after three jobs, the fourth line torn. The finished jobs are given a function
    # that fails if run (their journal lines renamed to match): they must come from the
    # journal, the others must run
    again = [(_never, (x,)) if x < 3 else (_square, (x,)) for x in range(6)]
    body = [json.loads(line) for line in lines[:3]]
    path.write_text("".join(json.dumps({**e, "key": job_key(again[e["i"]])}) + "\n" for e in body)
                    + lines[3][: len(lines[3]) // 2])
    with parallel.using("joblib", workers=1):
        resumed = journaled_map(_run_job, again, path, resume=True)
    assert resumed == first
    assert len(path.read_text().splitlines()) == 7     # three kept, one torn, three new


def test_a_journal_of_other_jobs_or_a_fresh_start_runs_everything(tmp_path):
    path = tmp_path / "jobs.jsonl"
    with parallel.using("joblib", workers=1):
        journaled_map(_run_job, [(_square, (x,)) for x in range(3)], path)
        # other arguments at the same indices: nothing of the journal is trusted
        other = journaled_map(_run_job, [(_square, (x + 10,)) for x in range(3)], path,
                              resume=True)
        assert [o["x"] for o in other] == [10, 11, 12]
        # no resume: the old journal is discarded, not appended to
        journaled_map(_run_job, [(_square, (1.5,))], path)
    entries = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(entries) == 1 and math.isclose(entries[0]["out"]["sq"], 2.25)
