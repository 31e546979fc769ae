"""``threat_reply_share``: how much of what the root proof leaves the root moves' reply
checks may use. 0 turns them off (every root move unchecked); the default, 0.5, is the
search as it was (the same counts); both backends count the same with any share."""
import pytest

import gameai
from gameai.search.threats import ThreatPart
from tests.threats.test_root_proof import played

# Black to move after White's open three is answered badly: White has a VCT after a pass
MOVES = "h8 h9 i9 g7 i7 i8 g9 j6 f10 e11 g10 g8 h10 f8 e8"


def _stop(share):
    return lambda nodes: False


def test_share_zero_checks_no_root_move_and_half_is_the_default():
    s = played("gomoku", MOVES)
    full = ThreatPart(depth=3)
    full.before_search(s, _stop, 20_000, None)
    assert full.opponent_threat and full.root_replies          # the checks ran here
    none = ThreatPart(depth=3, reply_share=0)
    none.before_search(s, _stop, 20_000, None)
    assert none.root_replies == {} and none.lost_moves() == {}
    assert none.nodes < full.nodes
    half = ThreatPart(depth=3, reply_share=0.5)
    half.before_search(s, _stop, 20_000, None)
    assert (half.nodes, half.root_replies) == (full.nodes, full.root_replies)


@pytest.mark.parametrize("share", [0.0, 0.25])
def test_both_backends_count_the_same_with_any_share(share):
    pytest.importorskip("numba")
    s = played("gomoku", MOVES)
    spec = ("negascout(nodes=20000,tt=true,history=true,id=true,threats=true,threat_order=true,"
            f"threat_forced=true,threat_depth=3,threat_reply_share={share}")
    py, co = (gameai.make_searcher(f"{spec},backend={b})").search(s) for b in ("python", "compiled"))
    assert (py.move, py.value, py.stats.nodes, py.stats.threat_nodes) == \
        (co.move, co.value, co.stats.nodes, co.stats.threat_nodes)
