"""``python -m stomp_analysis``: the command line (cli.py), as ``sockjs-stomp-aggregate``."""

import sys

from .cli import main

sys.exit(main())
