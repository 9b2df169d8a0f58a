"""Every report command the docs give runs as written: with the Python environment `make venv` makes (a bare
``python3`` lacks the dependencies on a fresh machine), from the repository's root, over files named as written."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ANALYSIS_DIR, TINY, write_log

ROOT = ANALYSIS_DIR.parent
PAGES = [
    ROOT / "README.md",
    ROOT / "jmx" / "README.md",
    ROOT / "jmeter-config" / "README.md",
    ROOT / "analysis" / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
]
COMMAND = re.compile(r"^\s*(\S*python\S*) analysis/aggregate\.py\b(.*)$", re.MULTILINE)
JTL = (
    "timeStamp,elapsed,label,responseCode,responseMessage,threadName,success,bytes,sentBytes,grpThreads,allThreads\n"
    "1700000000000,10,session,200,OK,senders 1-1,true,112,98,2,2\n"
)


def code_blocks(text: str) -> list[str]:
    return re.findall(r"(?ms)^\s*```[a-z]*\n(.*?)^\s*```", text)


def doc_commands() -> list[tuple[str, str]]:
    """(where, command) for every line of a code block that runs analysis/aggregate.py."""
    found = []
    for page in PAGES:
        for block in code_blocks(page.read_text(encoding="utf-8")):
            for match in COMMAND.finditer(block):
                found.append((str(page.relative_to(ROOT)), match.group(0).strip()))
    return found


def test_the_docs_give_report_commands():
    where = {page for page, _ in doc_commands()}
    assert {"README.md", "docs/results.md", "docs/distributed.md"} <= where


def test_no_page_runs_the_report_with_a_bare_python3():
    for page in PAGES:
        assert "python3 analysis/aggregate.py" not in page.read_text(encoding="utf-8"), page


def test_the_venv_the_commands_use_is_the_one_make_venv_makes():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^VENV := \.venv$", makefile, re.MULTILINE)
    assert re.search(r"^venv: \$\(VENV\)/\.installed$", makefile, re.MULTILINE)
    assert "python3 -m venv $(VENV)" in makefile
    for page, command in doc_commands():
        assert command.split()[0] == ".venv/bin/python", f"{page}: {command}"


@pytest.mark.parametrize(("page", "command"), doc_commands(), ids=[f"{p}: {c[:60]}" for p, c in doc_commands()])
def test_a_report_command_of_the_docs_runs_as_written(tmp_path, page, command):
    (tmp_path / "analysis").symlink_to(ANALYSIS_DIR)
    # the environment running this test stands for the one `make venv` makes
    (tmp_path / ".venv").symlink_to(Path(sys.prefix))
    words = shlex.split(command)
    for i, word in enumerate(words[2:], start=2):
        if words[i - 1] == "--jtl":
            (tmp_path / word).write_text(JTL, encoding="utf-8")
        elif word.endswith(".csv") and not words[i - 1].startswith("--"):
            # a file pattern (engine-named logs) stands for the files it matches: two engines' here
            names = [word.replace("*", f"{n}_1099") for n in ("1", "2")] if "*" in word else [word]
            for name in names:
                write_log(tmp_path / name, TINY)
    proc = subprocess.run(
        ["bash", "-c", command],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, f"{page}: {command}\n{proc.stderr}"
    assert "## Summary per run and destination" in proc.stdout
