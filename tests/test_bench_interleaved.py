"""``bench --game``'s interleaved run: the game's playouts and python-chess's peer taken in turns play the very games
of the one-after-the-other run (same action counts), with half as many peer games."""

from __future__ import annotations

from workbench.bench import bench_report, interleaved_playouts, protocol_playouts


def test_interleaved_playouts_play_the_same_games() -> None:
    ours, peer = interleaved_playouts("pole", 4, 3, 400, None)
    alone = protocol_playouts("pole", 4, 3, 400, None)
    assert ours["actions"] == alone["actions"] and ours["games"] == 4
    assert peer["games"] == 2 and peer["plies"] > 0
    sliced = sum(protocol_playouts("pole", 1, 3, 400, None, first=g)["actions"] for g in range(4))
    assert sliced == alone["actions"]
    out = bench_report("pole", 1, 3, 400, "", "python")
    assert out["engine"] == "python" and out["ratio_vs_chess"] > 0 and out["plies"] == out["actions"]
