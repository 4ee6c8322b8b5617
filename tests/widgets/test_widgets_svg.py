"""The project's own card and chart drawings (C1: 52 cards, red hearts/diamonds, black
clubs/spades; V18: the 32-card deck uses the same faces)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest

from scatlab.cards import ALL_CARDS, Card, Suit
from scatlab.errors import AnalysisError, CardError
from scatlab.widgets.chart import distribution_svg
from scatlab.widgets.svg import BLACK, RED, card_label, card_svg

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
def test_c1_every_card_is_a_well_formed_labelled_svg_in_its_suit_colour(card: Card) -> None:
    root = ET.fromstring(card_svg(card))
    assert root.tag == SVG + "svg" and root.get("role") == "img"
    assert root.get("aria-label") == card_label(card)
    colours = {p.get("fill") for p in root.iter(SVG + "path")}
    expected = RED if card.suit in (Suit.HEARTS, Suit.DIAMONDS) else BLACK
    assert colours == {expected}
    texts = [t.text for t in root.iter(SVG + "text")]
    assert texts.count(card.rank.symbol) >= 2  # both corners


def test_labels_name_rank_and_suit_in_words() -> None:
    assert card_label(Card.parse("QH")) == "queen of hearts"
    assert card_label("10c") == "ten of clubs"
    assert len({card_label(c) for c in ALL_CARDS}) == 52


def test_a_face_down_card_never_writes_its_identity() -> None:
    for card in ALL_CARDS:
        svg = card_svg(card, face_up=False)
        assert card_label(card) not in svg and card.rank.symbol + "<" not in svg
        assert 'aria-label="face-down card"' in svg


def test_selected_and_mark_are_drawn() -> None:
    plain = card_svg("AS")
    chosen = card_svg("AS", selected=True, mark="out")
    assert plain != chosen and ">out<" in chosen and "(out)" in chosen
    assert 'width="64"' in plain and 'height="90"' in plain


def test_bad_card_or_width_is_refused_with_the_input_quoted() -> None:
    with pytest.raises(CardError, match="'ZZ'"):
        card_svg("ZZ")
    with pytest.raises(CardError, match="width 3"):
        card_svg("AS", width=3)


def test_chart_has_one_bar_per_value_with_exact_fractions_in_desc() -> None:
    dist = {Fraction(21): Fraction(1, 2), Fraction(61, 2): Fraction(1, 4), Fraction(31): Fraction(1, 4)}
    root = ET.fromstring(distribution_svg(dist, highlight=Fraction(21), title="after drawing"))
    bars = [r for r in root.iter(SVG + "rect") if r.find(SVG + "title") is not None]
    assert len(bars) == 3
    heights = [float(b.get("height", "0")) for b in bars]
    assert heights[0] == pytest.approx(2 * heights[1]) and heights[1] == pytest.approx(heights[2])
    desc = root.find(SVG + "desc")
    assert desc is not None and desc.text == "21: 1/2; 30½: 1/4; 31: 1/4"
    assert root.get("aria-label") == "after drawing"


def test_chart_refuses_a_distribution_that_is_not_one() -> None:
    with pytest.raises(AnalysisError, match="sum to 1/2"):
        distribution_svg({Fraction(20): Fraction(1, 2)})
    with pytest.raises(AnalysisError, match="empty"):
        distribution_svg({})
    assert re.search(
        "negative",
        str(
            pytest.raises(AnalysisError, distribution_svg, {Fraction(1): Fraction(-1), Fraction(2): Fraction(2)}).value
        ),
    )
