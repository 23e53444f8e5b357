import subprocess
import sys

from textbcv.cli import main


def test_version(capsys):
    try:
        main(["--version"])
    except SystemExit as e:
        assert e.code == 0
    assert "textbcv 0.1.0" in capsys.readouterr().out


def test_unknown_command_is_one_line_exit_2():
    r = subprocess.run([sys.executable, "-m", "textbcv", "frobnicate"], capture_output=True, text=True)
    assert r.returncode == 2
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("textbcv: error: ")
    assert "Traceback" not in r.stderr


def test_start_up_does_not_import_scipy():
    code = "import sys; from textbcv.cli import build_parser; build_parser(); print('scipy' in sys.modules)"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.stdout.strip() == "False", r.stderr
