"""The benchmark scripts import each other as modules beside them (`python3 bench/echo.py` puts bench/ first on the
path): their tests do the same."""

import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(BENCH))
