"""Names as a person reads them: ``shield_of_faith`` -> "Shield of Faith".

Abilities, enchantments, melodies, forms, stances and pacts are keyed by snake_case names in the
engine, transcripts and JSON; the kiosk and the narration show them the way the rule book writes
them (Dungeonopoly, the class sections)."""

from __future__ import annotations

_SMALL = frozenset({"of", "the", "and", "a", "an", "to", "in", "on", "at", "for"})

# names whose book spelling is not plain title case of the words
_SPECIAL = {
    "dark_ones_own_luck": "Dark One's Own Luck",
    "knights_move": "Knight's Move",
    "jack_of_all_trades": "Jack-of-All-Trades",
    "come_out_of_sneak": "Come Out of Sneak",
}


def title_of(name: str) -> str:
    """A snake_case name in title case, small joining words kept small except at the start."""
    name = name.strip()
    if name in _SPECIAL:
        return _SPECIAL[name]
    words = [w for w in name.replace("-", "_").split("_") if w]
    out = []
    for i, w in enumerate(words):
        if i > 0 and w in _SMALL:
            out.append(w)
        else:
            out.append(w[:1].upper() + w[1:])
    return " ".join(out)
