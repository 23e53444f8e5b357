"""A run's life from outside: a failed first run is a run that --resume continues, a command's relative paths
mean what they mean in the user's shell, an interrupted run says what it kept and the command that continues,
a resumed one says what it found and estimates only the work left, and nothing is written before the last
check that can fail (the Dask connection) has passed."""

from __future__ import annotations

import ast
import io
import json
import shlex
import shutil
import sys
from pathlib import Path

import pytest

import textbcv
from textbcv.cli import main
from textbcv.tagging.progress import FoldProgress

NER = str(textbcv.bundled_corpora()["ner"])
MEMORISER = Path(__file__).resolve().parent / "data" / "memoriser.py"


def _memo(script: str = "memoriser.py") -> str:
    return f"{sys.executable} {script} --train {{train}} --test {{test}} --out {{pred}} --seed {{seed}}"


def _argv(out: str, script: str = "memoriser.py", *extra: str) -> list[str]:
    return ["compare", NER, "--task", "ner", "--m", "1", "--no-plots", "--out", out, "--train-seed", "1",
            "--system", f"a={_memo(script)}", "--system", f"b={_memo(script)}", *extra]


def _main(capsys, argv: list[str]) -> tuple[int, str]:
    capsys.readouterr()
    status = main(argv)
    return status, capsys.readouterr().err


def _interrupted(capsys, argv: list[str]) -> str:
    """The last line ``main(argv)`` prints when stopped (from Python, the interrupt reaches the caller after it)."""
    capsys.readouterr()
    with pytest.raises(KeyboardInterrupt):
        main(argv)
    return capsys.readouterr().err.strip().splitlines()[-1]


def test_a_first_run_whose_every_command_failed_is_resumed(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    argv = _argv("run", "memoriser.py", "--quiet")
    status, err = _main(capsys, argv)  # the script is not there yet: every task fails
    assert status == 2 and "fold 0,0, seed 1: the command exited with status 2" in err, err
    assert (tmp_path / "run" / "textbcv-run.json").is_file()  # a run from its first task on: its logs are kept
    assert (tmp_path / "run" / "commands" / "a" / "fold-0-0" / "seed-1" / "stderr.log").is_file()
    status, err = _main(capsys, argv)  # without --resume it is named as the run it is
    assert status == 2 and "holds a previous run" in err and "--resume" in err, err
    shutil.copy(MEMORISER, tmp_path / "memoriser.py")  # the user mends the cause
    status, err = _main(capsys, [*argv, "--resume"])
    assert status == 0, err
    assert len(json.loads((tmp_path / "run" / "report.json").read_text(encoding="utf-8"))["fold_counts"]["a"]) == 2


def test_a_commands_relative_paths_are_those_of_the_folder_it_was_started_from(tmp_path, monkeypatch, capsys):
    (tmp_path / "me").mkdir()
    shutil.copy(MEMORISER, tmp_path / "me" / "memoriser.py")
    monkeypatch.chdir(tmp_path / "me")
    status, err = _main(capsys, _argv(str(tmp_path / "elsewhere" / "run"), "memoriser.py", "--quiet"))
    assert status == 0, err
    assert sorted(p.name for p in (tmp_path / "me").iterdir()) == ["memoriser.py"]  # nothing else written here


def test_an_interrupted_run_says_what_it_kept_and_how_to_continue(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    shutil.copy(MEMORISER, tmp_path / "memoriser.py")
    argv = _argv("run")
    real = FoldProgress.update

    def stop_after_one(self, rec):
        real(self, rec)
        raise KeyboardInterrupt  # Ctrl-C once the first fold is kept

    monkeypatch.setattr(FoldProgress, "update", stop_after_one)
    line = _interrupted(capsys, argv)
    assert line.startswith("textbcv: interrupted (SIGINT): 1 of 4 folds and 1 finished command task are kept in run; "
                           "to continue it: textbcv compare "), line
    again = shlex.split(line.split("to continue it: ", 1)[1])
    assert again[0] == "textbcv" and again[1:] == [*argv, "--resume"]
    monkeypatch.setattr(FoldProgress, "update", real)
    status, err = _main(capsys, again[1:])
    assert status == 0, err
    assert "textbcv: resuming: 1 of 4 folds done, 3 to run" in err


def _rec(system: str, split: int, direction: int, seconds: float) -> dict:
    return {"system": system, "split": split, "direction": direction, "run": {"seconds": seconds},
            "counts": {"overall": {"tp": 1, "fp": 0, "fn": 0}}}


def test_the_time_left_counts_only_the_work_left_at_the_pace_of_the_workers():
    # 12 folds, 7 found finished; 5 of cost 1 left, two at a time, each taking its worker 60 s
    costs = {("a", j, 0): 1.0 for j in range(5)}
    f = io.StringIO()
    clock = iter([0.0, 60.0, 61.0]).__next__
    p = FoldProgress(12, costs, "lines", file=f, clock=clock, workers=2)
    p.update(_rec("a", 0, 0, 60.0))
    p.update(_rec("a", 1, 0, 60.0))  # the two run side by side
    lines = f.getvalue().splitlines()
    assert lines[0] == "textbcv: resuming: 7 of 12 folds done, 5 to run"
    # 3 folds left, two at a time: 60 s × 3 / 2 (the folds found finished are neither work nor pace)
    assert lines[1].endswith("1 min 00 s elapsed, about 2 min 00 s left")
    assert lines[2].endswith("1 min 01 s elapsed, about 1 min 30 s left")


def test_a_resumed_command_fold_costs_only_its_tasks_left(tmp_path):
    from textbcv.tagging.command import CommandSpec, task_folder
    from textbcv.tagging.runner import Payload, _tasks_left
    from textbcv.tagging.system import System

    system = System("a", "iob2", command=CommandSpec(_memo()), seed=1, train_seeds=4)
    payload = Payload([], [], {}, command_root=str(tmp_path))
    for seed in (1, 3, 4):
        task = task_folder(tmp_path, "a", 0, 1, seed)
        task.mkdir(parents=True)
        (task / "done.json").write_text("{}\n", encoding="utf-8")
    assert _tasks_left(system, payload, 0, 1) == 0.25  # seed 2 only
    assert _tasks_left(system, payload, 0, 0) == 1.0


def test_an_unreachable_scheduler_writes_nothing(tmp_path, monkeypatch, capsys):
    distributed = pytest.importorskip("dask.distributed", reason="the dask extra is not installed")

    def unreachable(address, timeout=None, **kwargs):  # what Client raises once its 20 s are over
        raise OSError(f"Timed out trying to connect to tcp://{address} after {timeout}")

    monkeypatch.setattr(distributed, "Client", unreachable)
    for command in (["calibrate", NER, "--systems", "iob2", "--reps", "1", "--size", "120", "--max-iterations", "2"],
                    ["compare", NER, "--task", "ner", "--m", "1", "--systems", "iob2,iobes", "--max-iterations", "2"]):
        out = tmp_path / command[0]
        status, err = _main(capsys, [*command, "--backend", "dask", "--scheduler", "127.0.0.1:1", "--out", str(out)])
        assert status == 2 and "cannot reach the dask scheduler at 127.0.0.1:1" in err, err
        assert not out.exists()


def test_the_hugging_face_recipes_command_runs_as_pasted_from_the_source_tree():
    from textbcv.cli import build_parser

    root = Path(__file__).resolve().parents[1]
    doc = ast.get_docstring(ast.parse((root / "scripts" / "examples" / "hf_command.py").read_text(encoding="utf-8")))
    assert doc is not None
    pasted = doc.split("::\n", 1)[1].strip().split("\n\n")[0].replace("\\\n", "")  # as a shell joins its lines
    argv = shlex.split(pasted)
    assert argv[:2] == ["textbcv", "compare"]
    args = build_parser(["compare"]).parse_args(argv[1:])
    (system,) = args.command_systems
    script = shlex.split(system.split("=", 1)[1])[1]
    assert not Path(script).is_absolute() and (root / script).is_file()  # relative to where textbcv starts


def test_an_interrupted_calibration_says_what_it_kept_and_how_to_continue(tmp_path, monkeypatch, capsys):
    from textbcv.calibration import study

    monkeypatch.chdir(tmp_path)
    argv = ["calibrate", NER, "--systems", "iob2", "--reps", "2", "--size", "120", "--max-iterations", "2",
            "--out", "cal"]
    real = study.append_line

    def stop_after_one(path, line):
        real(path, line)
        raise KeyboardInterrupt  # Ctrl-C once the first unit is kept

    monkeypatch.setattr(study, "append_line", stop_after_one)
    line = _interrupted(capsys, argv)
    assert line.startswith("textbcv: interrupted (SIGINT): 1 finished unit is kept in cal; to continue it: "
                           "textbcv calibrate "), line
    monkeypatch.setattr(study, "append_line", real)
    assert _main(capsys, shlex.split(line.split("to continue it: ", 1)[1])[1:])[0] == 0
    assert len((tmp_path / "cal" / "units.jsonl").read_text(encoding="utf-8").splitlines()) == 2


def test_ctrl_c_of_a_python_caller_stops_the_caller_and_of_the_program_gives_130(monkeypatch, capsys):
    def stopped(args):
        raise KeyboardInterrupt

    monkeypatch.setattr("textbcv.cli.stats.run", stopped)  # `textbcv stats` stopped by Ctrl-C while it runs
    with pytest.raises(KeyboardInterrupt):  # a test suite, a script: Ctrl-C stops it too, not only textbcv's run
        main(["stats", NER])
    assert capsys.readouterr().err == "textbcv: interrupted (SIGINT)\n"
    monkeypatch.setattr(sys, "argv", ["textbcv", "stats", NER])
    assert main() == 130  # the program: its exit status
