"""Write content/sample_log.csv: the made-up TRL-style log the training-log page ships with.

python scripts/make_sample_log.py
"""

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import content
from grpo_core.sample_log import sample_log

SEED = 16

if __name__ == "__main__":
    frame = sample_log(np.random.default_rng(SEED))
    frame.to_csv(content.path("sample_log.csv"), index=False)
    print(f"wrote {len(frame)} rows to {content.path('sample_log.csv')}")
