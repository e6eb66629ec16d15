"""GRPO advantage normalization: the math behind the app, pure numpy.

>>> group_advantages([1, 0, 1, 1], convention="trl").round(4)
array([ 0.866 , -1.7317,  0.866 ,  0.866 ])
"""

from grpo_core.advantages import AdvantageTrace, advantage_trace, group_advantages
from grpo_core.conventions import CONVENTIONS, Convention, get_convention

__all__ = [
    "CONVENTIONS",
    "AdvantageTrace",
    "Convention",
    "advantage_trace",
    "get_convention",
    "group_advantages",
]
