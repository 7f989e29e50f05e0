"""Weapons and attackers shared by the Unbound action tests, and the attack modifiers of a turn."""

import workbench as wb

U = wb.system("unbound")

Attack, Creature, Options, Situation, Action = U.Attack, U.Creature, U.Options, U.Situation, U.Action

SWORD = Attack("Sword", "1d8", crit="19-20x2")
BOW = Attack("Bow", kind="ranged", range_increment=100)
CLAWS = Attack("Claws", "1d6", natural=True, paired=True)
BITE = Attack("Bite", "1d8", natural=True)


def who(rank="untrained", weapons=(SWORD,), **kw):
    return Creature("A", 30, 10, 10, 2, 2, 2, rank, list(weapons), **kw)


def mods(actions, attacker, options=None, situation=None):
    return [(s.attack.name, s.modifier) for s in U.slots(actions, attacker, options, situation)]
