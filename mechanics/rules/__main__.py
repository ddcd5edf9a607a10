import sys

from mechanics.rules.cli import main

sys.exit(main())
