"""Variants as parameter sets (RULES.md §1).

Every rule that differs between variants — and every decision RULES.md marks as ours — is a named field of
:class:`Variant`, so an organiser can override it through the record's ``options``. Anti-Monopoly's two roles
(``roles``) make rent, building, jail and the end depend on the player's role; the role-specific amounts are
the board's (``monopolist_rents``, …), the rule numbers are here. The engine only reads these parameters.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Literal, get_args, get_origin, get_type_hints

from rules.errors import VariantError, gettext_noop
from rules.roles import MONOPOLIST

Scope = Literal["group", "square"]


@dataclass(frozen=True, slots=True)
class Variant:
    id: str
    # money
    starting_cash: int = 1500
    salary: int = 200
    # dice
    doubles_to_jail: int | None = 3  # doubles in a row that send to jail; None: never
    max_rolls_per_turn: int | None = None  # None: doubles chain; 2: one extra roll only (Anti-Monopoly)
    # buying and auctions
    auction_on_decline: bool = True
    auction_opening_percent: int = 0  # opening bid as % of the printed price (0: any bid of at least 1)
    auction_bank_bankruptcy: bool = True  # the bank auctions the squares of a player bankrupt to it
    # building
    build_requires_full_group: bool = True
    build_unmortgaged: Scope = "group"  # none of the group mortgaged / only the street itself
    even_building: bool = True
    even_selling: bool = True
    houses_per_hotel: int = 4
    bank_houses: int = 32
    bank_hotels: int = 12
    # mortgages
    mortgage_needs_no_buildings_on: Scope = "group"
    unmortgage_interest_percent: int = 10  # the 10 % (a cost) when lifting a mortgage
    mortgaged_transfer_fee_percent: int = 10  # paid at once by who receives a mortgaged square (0: none)
    # rent
    double_rent_full_group: bool = True  # unbuilt street, whole group owned, none of it mortgaged
    sets_count_mortgaged: bool = True  # (decision) mortgaged railroads/utilities count for "number owned"
    # a pending rent lapses at the next player's roll (RULES.md §1, seeds 001/004) or at any next roll
    rent_lapses_at: Literal["next_roll", "next_player_roll"] = "next_player_roll"
    # trades
    trade_needs_no_buildings_on: Scope = "group"
    # cards: the largest amount a card's effect written out may carry (GAME_RECORD.md "Card effects")
    card_amount_max: int = 500
    # jail
    jail_fine: int = 50
    jail_tries: int = 3  # turns in which the prisoner may try for doubles
    jail_release: Literal["fine_on_last_try", "free_after_tries", "fine_after_tries"] = "fine_on_last_try"
    jail_doubles_roll_again: bool = False  # leaving jail on doubles gives another roll
    jail_fine_before_move: bool = True  # 002: a fine the last try imposes is paid before the token moves
    # time and end of game
    move_time_limit: int | None = None  # seconds per move (the referee records `timeout`)
    deal_title_deeds: int = 0  # title deeds dealt to each player at the start (short and timed games)
    end_after_bankruptcies: int | None = None  # the game ends at this bankruptcy (None: one player left)
    max_rounds: int | None = None
    # the variant's games are played against a clock (002's "agreed time", 001's "fixed time"): its minutes
    # are `time_limit_minutes`, set per game or tournament; without them a game has no clock (RULES.md turn 4)
    timed_end: bool = False
    time_limit_minutes: int | None = None  # the clock of a timed game, per game
    finish_round_on_time: bool = True  # (decision) on `time_up` the round in play is finished first
    bankruptcy_needs_insolvency: bool = (
        True  # refuse a bankruptcy while selling/mortgaging could pay the debt
    )
    # Anti-Monopoly: two roles (competitor / monopolist), RULES.md §1 last column
    roles: bool = False  # every player has a role; the numbers differ by at most one
    ending: Literal["game_a", "game_b", "two_hour"] = "game_a"  # last player left / the other role all
    # bankrupt / a time limit, then the final steps A–D
    monopolist_houses_per_hotel: int = (
        3  # houses before a monopolist's apartment (a competitor's: houses_per_hotel)
    )
    monopolist_builds_on_third_street: bool = True  # 003 (English): yes; 000 (Polish edition): no
    build_in_own_turn_only: bool = False
    bank_stock_unlimited: bool = False  # when the bank's houses run out, paper stand-ins
    utility_rent_fresh_throw: bool = False  # the lander throws the dice again for a utility's rent
    monopolists_in_prison_collect_rent: bool = True
    # (decision) the end's count — the two-hour game's step C, Game B's rule 25 — follows the rule above: a
    # monopolist in Prison earns nothing there either (off: he is paid / counted as any owner)
    prison_rule_in_final_count: bool = True
    income_tax_percent_competitor: int = 10  # of cash, on a tax square with the percentage choice
    income_tax_percent_monopolist: int = 20
    income_tax_assets_percent: int = 10  # of the printed price of unmortgaged properties and of buildings
    # (decision) the percentage is of the assets when the token lands (a mortgage or a sale made before the
    # choice does not lower it), or when the choice is recorded
    income_tax_valued_at: Literal["landing", "choice"] = "landing"
    final_keep_percent_competitor: int = 10  # two-hour game, step B: the share of cash each role keeps
    final_keep_percent_monopolist: int = 20

    @property
    def hotel_level(self) -> int:
        return self.houses_per_hotel + 1

    def hotel_level_for(self, role: str | None) -> int:
        """The building level of the hotel (Anti-Monopoly: apartment) for an owner of ``role``."""
        if self.roles and role == MONOPOLIST:
            return self.monopolist_houses_per_hotel + 1
        return self.houses_per_hotel + 1

    @property
    def timed(self) -> bool:
        """The game has a clock, so it may end on time (a ``time_up`` event): its minutes are set, or it is
        Anti-Monopoly's two-hour game (RULES.md, turn 4: ``time_up`` is refused in a game without a clock)."""
        return bool(self.time_limit_minutes) or self.ending == "two_hour"

    def auction_opening_bid(self, price: int) -> int:
        """The lowest acceptable winning bid for a square printed at ``price``."""
        if self.auction_opening_percent <= 0:
            return 1
        return ceil_percent(price, self.auction_opening_percent)

    def as_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def ceil_percent(amount: int, percent: int) -> int:
    """``percent`` % of ``amount`` rounded up to a whole unit (RULES.md §1: in the bank's favour)."""
    return -(-amount * percent // 100)


CLASSIC = Variant(id="classic")

VARIANTS: dict[str, Variant] = {
    "classic": CLASSIC,
    "polish-table": replace(
        CLASSIC, id="polish-table", move_time_limit=50, end_after_bankruptcies=2, timed_end=True
    ),
    "short": replace(CLASSIC, id="short", deal_title_deeds=2, houses_per_hotel=3, end_after_bankruptcies=2),
    "timed": replace(CLASSIC, id="timed", deal_title_deeds=2, timed_end=True),
    "tournament-pl": replace(
        CLASSIC,
        id="tournament-pl",
        doubles_to_jail=2,
        auction_opening_percent=50,
        build_requires_full_group=False,
        build_unmortgaged="square",
        even_building=False,
        even_selling=False,
        mortgage_needs_no_buildings_on="square",
        mortgaged_transfer_fee_percent=0,
        trade_needs_no_buildings_on="square",
        jail_tries=2,
        jail_release="free_after_tries",
        jail_doubles_roll_again=True,
        max_rounds=10,
    ),
    "anti-monopoly": replace(
        CLASSIC,
        id="anti-monopoly",
        salary=100,
        doubles_to_jail=None,
        max_rolls_per_turn=2,  # a double gives one extra turn; a double on it is ordinary
        auction_on_decline=False,
        auction_bank_bankruptcy=False,  # bankrupt to the treasury: unsold, unmortgaged, sold as usual
        build_requires_full_group=False,
        build_unmortgaged="square",
        even_building=False,
        even_selling=False,
        bank_houses=35,
        bank_hotels=15,
        bank_stock_unlimited=True,
        mortgage_needs_no_buildings_on="square",
        mortgaged_transfer_fee_percent=0,
        double_rent_full_group=False,
        trade_needs_no_buildings_on="square",
        jail_tries=2,
        jail_release="fine_after_tries",  # pay 50 before the third turn, then roll and move
        jail_doubles_roll_again=True,  # a double in Prison / Price War is like any other (rule 7)
        roles=True,
        build_in_own_turn_only=True,
        utility_rent_fresh_throw=True,
        monopolists_in_prison_collect_rent=False,
    ),
}

#: The engine's generations of rules, each by what RULES.md's newer decisions changed: the options under
#: which a record made before that generation replays as it was played. 2: a rent lapses at the next player's
#: roll, the jail fine is settled before the token moves; 3: Anti-Monopoly's income tax is valued at the
#: landing, and a monopolist in Prison earns nothing in the end's count.
RULE_CHANGES: dict[int, dict] = {
    2: {"rent_lapses_at": "next_roll", "jail_fine_before_move": False},
    3: {"income_tax_valued_at": "choice", "prison_rule_in_final_count": False},
}

#: The generation of this engine's rules (a tournament backup says which its games were played by).
RULES_GENERATION = max(RULE_CHANGES)


def previous_rules(generation) -> dict:
    """The options that make a record of the rules' ``generation`` (anything else than a known generation:
    older than all of them) replay as it was played."""
    if not isinstance(generation, int) or isinstance(generation, bool):
        generation = 1
    return {k: v for g, options in sorted(RULE_CHANGES.items()) if generation < g for k, v in options.items()}


#: The options under which a record made before every newer decision replays as it was played.
PREVIOUS_RULES = previous_rules(None)

#: Options a record may never override (they identify the variant).
FIXED = {"id"}


def available_variants() -> list[str]:
    return list(VARIANTS)


def _matches(t, value) -> bool:
    if t is type(None):
        return value is None
    if t is bool:
        return isinstance(value, bool)
    if t is int:
        return isinstance(value, int) and not isinstance(value, bool) and value >= 0
    if get_origin(t) is Literal:
        return value in get_args(t)
    return False


def _check_type(name: str, value, hint):
    allowed = get_args(hint) if get_origin(hint) is not Literal and get_args(hint) else (hint,)
    if not any(_matches(t, value) for t in allowed):
        expected = " or ".join(
            "null" if t is type(None) else " / ".join(get_args(t)) if get_origin(t) is Literal else t.__name__
            for t in allowed
        )
        raise VariantError(
            "options.bad_value",
            gettext_noop("Option {option} must be {expected}, not {value}."),
            option=name,
            expected=expected,
            value=repr(value),
        )


def make_variant(variant_id: str, options: dict | None = None) -> Variant:
    """The variant's parameter set with the record's ``options`` applied (unknown ones are errors)."""
    if variant_id not in VARIANTS:
        raise VariantError(
            "variant.unknown",
            gettext_noop("Unknown variant {variant}; known variants: {known}."),
            variant=variant_id,
            known=", ".join(VARIANTS),
        )
    base = VARIANTS[variant_id]
    if not options:
        return base
    if not isinstance(options, dict):
        raise VariantError("options.not_object", gettext_noop("Options must be an object."))
    hints = get_type_hints(Variant)
    names = {f.name for f in fields(Variant)} - FIXED
    for key, value in options.items():
        if key not in names:
            raise VariantError(
                "options.unknown",
                gettext_noop("Unknown option {option}."),
                option=key,
            )
        _check_type(key, value, hints[key])
    v = replace(base, **options)
    if v.houses_per_hotel < 1 or v.houses_per_hotel > 5:
        raise VariantError("options.bad_value", gettext_noop("houses_per_hotel must be between 1 and 5."))
    if v.max_rounds == 0:
        raise VariantError("options.bad_value", gettext_noop("max_rounds must be at least 1."))
    if v.ending != "game_a" and not v.roles:
        raise VariantError(
            "options.bad_value", gettext_noop("The option ending is for a game with roles (Anti-Monopoly).")
        )
    return v
