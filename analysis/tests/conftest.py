from __future__ import annotations

import csv
from pathlib import Path

import pytest

from stomp_analysis.timing_log import HEADER_V1

ANALYSIS_DIR = Path(__file__).resolve().parents[1]


def write_log(path: Path, lines: list[str], header: str | None = HEADER_V1) -> Path:
    """Writes a timing log; the lines are in the old 9-column format unless ``header=HEADER`` (see v2)."""
    text = "\n".join(([header] if header is not None else []) + lines) + "\n"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def log_writer(tmp_path):
    def make(lines: list[str], name: str = "timing.csv", header: str | None = HEADER_V1) -> Path:
        return write_log(tmp_path / name, lines, header)

    return make


#: A tiny run: 5 echo messages (3 answered: 1, 2 and 3 ms; 1 lost; 1 failed with a comma in its reason)
#: and 2 broadcast messages on /topic/chat (one answered by 3 receivers: 5, 6, 7 ms; one lost at test end).
TINY = [
    "1700000000000,ANSWERED,m-1,1000,user-1,user-1,/app/echo,100,",
    "1700000000100,ANSWERED,m-2,3000,user-2,user-2,/app/echo,100,",
    "1700000000200,LOST,m-3,,user-1,,/app/echo,90,timeout",
    '1700000001000,FAILED,m-4,,user-2,,/app/echo,90,"SendFailed: Connection closed, 1006"',
    "1700000001500,ANSWERED,m-5,2000,user-1,user-1,/app/echo,100,",
    "1700000002000,ANSWERED,b-1,5000,user-1,user-1,/topic/chat,100,",
    "1700000002000,ANSWERED,b-1,7000,user-1,user-2,/topic/chat,100,",
    "1700000002000,ANSWERED,b-1,6000,user-1,user-3,/topic/chat,100,",
    "1700000003000,LOST,b-2,,user-2,,/topic/chat,90,test-ended",
]


def v2(
    lines: list[str],
    mode: str = "await-reply",
    run: int = 1_700_000_000_000 - 10_000,
    engine: str = "local",
    version: str = "0.1.0",
    sub_us: int = 0,
) -> list[str]:
    """The 9-column lines in the 14-column format: mode, run, sent_epoch_us (sent_epoch_ms × 1000 + sub_us),
    engine and version appended."""
    out = []
    for line in lines:
        sent_ms = int(line.split(",", 1)[0])
        out.append(f"{line},{mode},{run},{sent_ms * 1000 + sub_us},{engine},{version}")
    return out


def v3(lines: list[str], **v2_args) -> list[str]:
    """The 9-column lines in the 16-column format (see v2), with sender_user and receiver_user appended: the
    virtual users ``vu <sender>`` and ``vu <receiver>`` (empty when the record has no receiver)."""
    out = []
    for line in v2(lines, **v2_args):
        fields = next(csv.reader([line]))
        sender, receiver = fields[4], fields[5]
        out.append(f"{line},vu {sender},{f'vu {receiver}' if receiver else ''}")
    return out
