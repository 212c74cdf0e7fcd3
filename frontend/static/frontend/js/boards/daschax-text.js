// Daschax texts: move list lines, coin tosses, variants, piece and facing names.
import { fmt, gettext } from "../socket.js";
import { fieldName } from "./daschax-rules.js";

export function pieceName(size) {
  return { small: gettext("small piece"), medium: gettext("medium piece"), large: gettext("large piece") }[size];
}

export function aPiece(size) {
  return { small: gettext("a small piece"), medium: gettext("a medium piece"), large: gettext("a large piece") }[size];
}

export function facingName(facing) {
  return {
    N: gettext("north"),
    NE: gettext("north-east"),
    SE: gettext("south-east"),
    S: gettext("south"),
    SW: gettext("south-west"),
    NW: gettext("north-west"),
  }[facing];
}

/** "a small piece on d5, a large piece on e6" */
export function piecesOn(list) {
  return list.map((p) => fmt(gettext("%(piece)s on %(field)s"), { piece: aPiece(p.size), field: fieldName(p.at) })).join(", ");
}

export function describe(item, { seatName }) {
  if (item.type === "stalled") return fmt(gettext("%(n)s turns in a row without a capture: the game is drawn (the site's house rule)."), { n: item.turns });
  const player = seatName(item.seat);
  if (item.type === "placed") {
    return fmt(gettext("%(player)s places %(piece)s on %(field)s."), { player, piece: aPiece(item.size), field: fieldName(item.at) });
  }
  if (item.type === "removed") {
    return fmt(gettext("%(player)s removes %(piece)s from %(field)s."), { player, piece: aPiece(item.size), field: fieldName(item.at) });
  }
  if (item.type === "turned") {
    const params = {
      player,
      piece: pieceName(item.size),
      from: fieldName(item.from),
      to: fieldName(item.to),
      facing: facingName(item.facing),
      steps: item.steps.join(" "),
    };
    let text = params.from === params.to
      ? fmt(gettext("%(player)s: %(piece)s on %(from)s turns to face %(facing)s (%(steps)s)."), params)
      : fmt(gettext("%(player)s: %(piece)s %(from)s → %(to)s, facing %(facing)s (%(steps)s)."), params);
    if (item.captures.length) text += " " + fmt(gettext("Captures %(pieces)s."), { pieces: piecesOn(item.captures) });
    return text;
  }
  if (item.type === "won") return fmt(gettext("%(player)s has captured every enemy piece."), { player });
  return null;
}

/** One line per coin toss (or decision fixed by the table's creator). */
export function tossLines(view, seatLabel) {
  const out = [];
  const place = view.coin_tosses.place_first;
  const move = view.coin_tosses.move_first;
  if (place) {
    const player = seatLabel(place.seat);
    out.push({
      by: place.by,
      seat: place.seat,
      text: place.by === "coin"
        ? fmt(gettext("Coin toss: %(player)s places first."), { player })
        : fmt(gettext("Set by the table: %(player)s places first."), { player }),
    });
  }
  if (move) {
    const player = seatLabel(move.seat);
    out.push({
      by: move.by,
      seat: move.seat,
      text: move.by === "coin"
        ? fmt(gettext("Coin toss: %(player)s moves first."), { player })
        : fmt(gettext("Set by the table: %(player)s moves first."), { player }),
    });
  }
  return out;
}

export function variantsLine(options) {
  const on = [];
  if (options.formation) on.push(fmt(gettext("fixed formation %(letters)s"), { letters: options.formation }));
  if (options.move_on) on.push(gettext("moving on after a capture"));
  if (options.removal) on.push(gettext("removing own pieces"));
  if (options.backward) on.push(gettext("moving backward"));
  if (options.stall_turns === 0) on.push(gettext("no draw for turns without a capture"));
  else if (options.stall_turns && options.stall_turns !== 150) {
    on.push(fmt(gettext("drawn after %(n)s turns without a capture"), { n: options.stall_turns }));
  }
  return on.length ? fmt(gettext("Variants: %(list)s."), { list: on.join(", ") }) : "";
}

/** "Capture-free turns: 112 / 150": the house rule's count (view.stall_turns 0: off). */
export function stallCount(view) {
  return fmt(gettext("Capture-free turns: %(n)s / %(limit)s"), { n: view.capture_free_turns, limit: view.stall_turns });
}

export const STEP_LABELS = () => ({
  F: gettext("Forward"),
  L: gettext("Left"),
  R: gettext("Right"),
  B: gettext("Back"),
});

export function whyNot(why) {
  return {
    points: gettext("No movement points left."),
    edge: gettext("A piece may not leave the board."),
    own: gettext("A piece may not move onto or over its own pieces."),
    stopped: gettext("After a capture the piece must stop; it may only turn."),
    noop: gettext("A turn must change the piece's field or facing, or capture."),
  }[why];
}
