//! Congkak (seed 000 §2.3.2): Congklak's relay sowing played over rounds.
//!
//! - A round ends as soon as either row is empty after a turn; the seeds left on the board
//!   go to the owner of their row. The player with fewer seeds in store lost the round and
//!   starts the next (after a tied round, the player who would have moved next: a rule that
//!   needs no history, so a position string says all there is).
//! - Next round each player refills their own holes from the left, 7 seeds each, from their
//!   store; holes they cannot fill are burnt: never sown into, never played. A player who
//!   collects enough seeds reclaims burnt holes (left to right) at a later refill.
//! - The match ends when a player cannot fill a single hole, or after the round cap
//!   (default 10, as in seed 000's tests); the larger store wins.
//! - Round 1 opens simultaneously (seed 000 §2.3.2; its §5.1.7 reports that taking the
//!   choices in turn let the second player see the first's). Both players choose a hole
//!   unseen, as one joint move; then both hands sow in lockstep, one seed each per step. A
//!   hand whose last seed falls in an occupied hole lifts it and sows on (relay); in its own
//!   store, its player picks again at once (the other hand waits; if both do so in the same
//!   step, that is another joint move); in an empty hole it stops (shooting, if the hole is
//!   its own; a hand whose last seed reaches its store when its row is empty stops too).
//!   Whoever stops last moves first afterwards. If both stop in the same step,
//!   neither finished last, and the race is run again: both choose a hole at once (the seed
//!   leaves this tie open; any fixed winner would hand symmetric play — equal agents
//!   choosing alike — to one side, and every race banks seeds, so re-runs end). Within a
//!   step both hands drop their seed first, then South's landing is resolved, then
//!   North's; a hand whose last hole was just emptied by the other stops.
//!
//! Position strings extend the mancala ones: burnt holes are `x`, the side to move is `*`
//! at a simultaneous choice, then `rROUND` (`rROUND/CAP` for a non-default cap); during the
//! opening, when not both are choosing, a last field `hands=SOUTH;NORTH;STEP` with each hand
//! `pick`, `done@STEP` or `sow@SPOT:SEEDS:RELAYS` (SPOT like `N3`, slot m + 1 = the store).
//! Moves: a hole number, or at a simultaneous choice `SOUTH/NORTH` (`3/5`).

use super::congklak::{MAX_RELAYS, RELAY_SOWING, relay, settle_landing};
use super::{Board, Settled, Spot, bank_rows, capture_opposite, text};
use crate::games::{Game, GameError, MoveList, Outcome, Player};

/// Holes per side and seeds per hole.
pub const HOLES: usize = 7;
pub const SEEDS_PER_HOLE: u8 = 7;
/// Seed 000 capped its test matches at 10 rounds.
pub const DEFAULT_ROUND_CAP: u8 = 10;

/// A Congkak move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CongkakMove {
    /// Sow from this hole (0-based from the mover's left).
    Hole(u8),
    /// Both players' holes at a simultaneous choice.
    Joint { south: u8, north: u8 },
}

/// One player's hand during the simultaneous opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Hand {
    /// Its player must choose a hole (at the start, and after a last seed in own store).
    Picking,
    /// Sowing: the last seed went to `at`, `seeds` are still in hand.
    Sowing { at: Spot, seeds: u8, relays: u16 },
    /// Stopped at lockstep step `step`.
    Done { step: u32 },
}

/// The simultaneous opening of round 1, while it lasts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Opening {
    hands: [Hand; 2],
    step: u32,
}

/// A Congkak match.
#[derive(Clone, Debug, PartialEq)]
pub struct Congkak {
    board: Board,
    /// The player to move; at a simultaneous choice, the player this copy chooses for.
    to_move: Player,
    round: u8,
    round_cap: u8,
    opening: Option<Opening>,
    over: bool,
    last: Settled,
}

impl Congkak {
    /// A new match: 7 holes of 7 seeds a side, round 1 about to open simultaneously.
    pub fn start() -> Congkak {
        Congkak::with_round_cap(DEFAULT_ROUND_CAP)
    }

    /// A new match that ends after `round_cap` rounds at the latest.
    pub fn with_round_cap(round_cap: u8) -> Congkak {
        Congkak {
            board: Board::new(HOLES, SEEDS_PER_HOLE),
            to_move: Player::First,
            round: 1,
            round_cap: round_cap.max(1),
            opening: Some(Opening {
                hands: [Hand::Picking; 2],
                step: 0,
            }),
            over: false,
            last: Settled::default(),
        }
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The round being played (1-based).
    pub fn round(&self) -> u8 {
        self.round
    }

    pub fn round_cap(&self) -> u8 {
        self.round_cap
    }

    /// Every seed in play: on the board, in the stores, and in a hand waiting mid-sowing
    /// during the opening. Constant through a match.
    pub fn total_seeds(&self) -> u32 {
        let in_hands = self.opening.map_or(0, |opening| {
            opening
                .hands
                .iter()
                .map(|hand| match hand {
                    Hand::Sowing { seeds, .. } => u32::from(*seeds),
                    _ => 0,
                })
                .sum()
        });
        self.board.total() + in_hands
    }

    /// Lifts `hole` of `side` into that side's hand.
    fn lift_into_hand(&mut self, side: Player, hole: u8) -> Hand {
        let at = Spot {
            side,
            slot: usize::from(hole),
        };
        Hand::Sowing {
            at,
            seeds: self.board.lift(at),
            relays: 0,
        }
    }

    /// Runs the opening's hands in lockstep until a player must choose or both have stopped.
    /// `chooser` made the move that set them going (`None`: both, a joint move); the move's
    /// effects reported are their hand's (either hand's for a joint move).
    fn run_opening(&mut self, mut opening: Opening, chooser: Option<Player>) {
        let mut settled = Settled::default();
        while opening
            .hands
            .iter()
            .any(|hand| matches!(hand, Hand::Sowing { .. }))
            && !opening.hands.contains(&Hand::Picking)
        {
            opening.step = opening.step.saturating_add(1);
            for (i, hand) in opening.hands.iter_mut().enumerate() {
                if let Hand::Sowing { at, seeds, .. } = hand {
                    *at = self
                        .board
                        .next_spot(*at, *at, Player::BOTH[i], RELAY_SOWING);
                    self.board.drop_seed(*at);
                    *seeds -= 1;
                }
            }
            for (i, hand) in opening.hands.iter_mut().enumerate() {
                if let Hand::Sowing {
                    at,
                    seeds: 0,
                    relays,
                } = *hand
                {
                    let player = Player::BOTH[i];
                    let (next, captured) = self.resolve_landing(player, at, relays, opening.step);
                    *hand = next;
                    if chooser.is_none_or(|c| c == player) {
                        if !matches!(next, Hand::Sowing { .. }) {
                            // This relay chain is over: stopped, or in the store to pick again.
                            settled.relays = settled.relays.saturating_add(relays);
                        }
                        settled.captured |= captured;
                    }
                }
            }
            // The other hand's relay or shot may have emptied a picking player's row.
            for (i, hand) in opening.hands.iter_mut().enumerate() {
                if *hand == Hand::Picking && self.board.row_total(Player::BOTH[i]) == 0 {
                    *hand = Hand::Done { step: opening.step };
                }
            }
        }
        self.last = settled;
        match opening.hands {
            [Hand::Picking, Hand::Picking] => {
                self.opening = Some(Opening {
                    hands: opening.hands,
                    step: 0,
                });
                self.to_move = Player::First;
            }
            [Hand::Done { step: south }, Hand::Done { step: north }]
                if south == north && Player::BOTH.iter().all(|&p| self.board.row_total(p) > 0) =>
            {
                // Neither finished last: the race is run again, both choosing at once.
                self.opening = Some(Opening {
                    hands: [Hand::Picking; 2],
                    step: 0,
                });
                self.to_move = Player::First;
            }
            [Hand::Done { step: south }, Hand::Done { step: north }] => {
                self.opening = None;
                self.after_turn(if north > south {
                    Player::Second
                } else {
                    Player::First
                });
            }
            [Hand::Picking, _] => {
                self.opening = Some(opening);
                self.to_move = Player::First;
            }
            [_, _] => {
                self.opening = Some(opening);
                self.to_move = Player::Second;
            }
        }
    }

    /// What a hand of `mover` whose last seed fell at `at` does next in the opening, and
    /// whether it captured seeds from the facing hole. A last seed in the own store picks
    /// again, unless the row is empty: then the hand stops.
    fn resolve_landing(&mut self, mover: Player, at: Spot, relays: u16, step: u32) -> (Hand, bool) {
        let done = Hand::Done { step };
        if at.slot == HOLES {
            let picks = self.board.row_total(mover) > 0;
            return (if picks { Hand::Picking } else { done }, false);
        }
        match self.board.pit(at.side, at.slot) {
            0 => (done, false),
            1 if at.side == mover => {
                let facing = capture_opposite(&mut self.board, mover, at.slot, true);
                (done, facing.is_some_and(|f| f > 0))
            }
            1 => (done, false),
            _ if relays >= MAX_RELAYS => (done, false),
            _ => (
                Hand::Sowing {
                    at,
                    seeds: self.board.lift(at),
                    relays: relays + 1,
                },
                false,
            ),
        }
    }

    /// Ends the round if a row is empty, else hands the turn to `next`.
    fn after_turn(&mut self, next: Player) {
        if Player::BOTH.iter().all(|&p| self.board.row_total(p) > 0) {
            self.to_move = next;
            return;
        }
        bank_rows(&mut self.board);
        let [south, north] = Player::BOTH.map(|p| self.board.store(p));
        let loser = match south.cmp(&north) {
            std::cmp::Ordering::Less => Player::First,
            std::cmp::Ordering::Greater => Player::Second,
            std::cmp::Ordering::Equal => next,
        };
        let cannot_refill = south < SEEDS_PER_HOLE || north < SEEDS_PER_HOLE;
        if cannot_refill || self.round >= self.round_cap {
            self.over = true;
            self.to_move = next;
            return;
        }
        for side in Player::BOTH {
            for hole in 0..HOLES {
                let filled = self.board.store(side) >= SEEDS_PER_HOLE;
                if filled {
                    self.board.take_from_store(side, SEEDS_PER_HOLE);
                    self.board.set_pit(side, hole, SEEDS_PER_HOLE);
                }
                self.board.set_burnt(side, hole, !filled);
            }
        }
        self.round += 1;
        self.to_move = loser;
    }

    fn own_holes(&self, side: Player) -> impl Iterator<Item = u8> + '_ {
        (0..HOLES)
            .filter(move |&hole| self.board.pit(side, hole) > 0)
            .map(|hole| hole as u8)
    }

    fn hands_text(opening: &Opening) -> String {
        let hand = |hand: &Hand| match *hand {
            Hand::Picking => "pick".to_string(),
            Hand::Done { step } => format!("done@{step}"),
            Hand::Sowing { at, seeds, relays } => format!(
                "sow@{}{}:{seeds}:{relays}",
                text::side_letter(at.side),
                at.slot + 1
            ),
        };
        format!(
            "hands={};{};{}",
            hand(&opening.hands[0]),
            hand(&opening.hands[1]),
            opening.step
        )
    }

    fn parse_hands(position: &str, field: &str) -> Result<Opening, GameError> {
        let bad = || {
            text::malformed(
                position,
                format!(
                    "'{field}' is not hands=SOUTH;NORTH;STEP (each pick, done@STEP or sow@SPOT:SEEDS:RELAYS)"
                ),
            )
        };
        let parts: Vec<&str> = field
            .strip_prefix("hands=")
            .ok_or_else(bad)?
            .split(';')
            .collect();
        let [south, north, step] = parts.as_slice() else {
            return Err(bad());
        };
        let hand = |s: &str| -> Option<Hand> {
            if s == "pick" {
                return Some(Hand::Picking);
            }
            if let Some(step) = s.strip_prefix("done@") {
                return Some(Hand::Done {
                    step: step.parse().ok()?,
                });
            }
            let rest = s.strip_prefix("sow@")?;
            let mut fields = rest.split(':');
            let spot = fields.next()?;
            let side = match spot.get(..1)? {
                "S" => Player::First,
                "N" => Player::Second,
                _ => return None,
            };
            let slot: usize = spot.get(1..)?.parse().ok()?;
            let seeds: u8 = fields.next()?.parse().ok()?;
            let relays: u16 = fields.next()?.parse().ok()?;
            let valid = (1..=HOLES + 1).contains(&slot) && seeds > 0 && fields.next().is_none();
            valid.then_some(Hand::Sowing {
                at: Spot {
                    side,
                    slot: slot - 1,
                },
                seeds,
                relays,
            })
        };
        Ok(Opening {
            hands: [hand(south).ok_or_else(bad)?, hand(north).ok_or_else(bad)?],
            step: step.parse().map_err(|_| bad())?,
        })
    }
}

impl Congkak {
    /// Whether `opening` can be reached in play: the side to move is exactly the one
    /// picking (both at `*`) and has seeds, hands sow only into their own store, round 1 has
    /// no burnt holes, and the seeds (hands included) fit the board's counters.
    fn check_opening(
        position: &str,
        board: &Board,
        opening: &Opening,
        to_move: Player,
        both: bool,
    ) -> Result<(), GameError> {
        let bad = |reason: &str| Err(text::malformed(position, reason));
        let picking = opening.hands.map(|hand| hand == Hand::Picking);
        let expected = if both {
            [true, true]
        } else {
            [to_move == Player::First, to_move == Player::Second]
        };
        if picking != expected {
            return bad("during the opening exactly the side to move is picking (both: write *)");
        }
        if Player::BOTH
            .iter()
            .any(|&p| picking[p.index()] && board.row_total(p) == 0)
        {
            return bad("a player who picks a hole needs seeds in their row");
        }
        if board.has_burnt() {
            return bad("no hole is burnt in round 1");
        }
        let mut in_hands = 0;
        for (owner, hand) in Player::BOTH.iter().zip(&opening.hands) {
            if let Hand::Sowing { at, seeds, .. } = *hand {
                if at.slot == HOLES && at.side != *owner {
                    return bad("a hand never sows into the opponent's store");
                }
                in_hands += u32::from(seeds);
            }
        }
        if board.total() + in_hands > 255 {
            return bad("the board and hands hold at most 255 seeds");
        }
        Ok(())
    }

    /// A line for each hand that waited during the move before this position and has
    /// stopped since: it sowed on alongside the other player's move, which the move's own
    /// description does not tell.
    fn finished_hand_notes(&self, previous: &Congkak) -> Vec<String> {
        let Some(before) = previous.opening else {
            return Vec::new();
        };
        let now = self.opening.map(|opening| opening.hands);
        Player::BOTH
            .iter()
            .filter_map(|&owner| {
                if !matches!(before.hands[owner.index()], Hand::Sowing { .. }) {
                    return None;
                }
                let still_sowing =
                    now.is_some_and(|hands| matches!(hands[owner.index()], Hand::Sowing { .. }));
                (!still_sowing).then(|| {
                    format!(
                        "{}'s waiting hand sowed on alongside and stopped",
                        text::side_name(owner)
                    )
                })
            })
            .collect()
    }
}

impl Game for Congkak {
    type Move = CongkakMove;

    fn name(&self) -> &'static str {
        "congkak"
    }

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn legal_moves(&self, moves: &mut MoveList<CongkakMove>) {
        moves.clear();
        if self.over {
            return;
        }
        if self.simultaneous() {
            for south in self.own_holes(Player::First) {
                moves.extend(
                    self.own_holes(Player::Second)
                        .map(|north| CongkakMove::Joint { south, north }),
                );
            }
        } else {
            moves.extend(self.own_holes(self.to_move).map(CongkakMove::Hole));
        }
    }

    fn play_unchecked(&mut self, mv: CongkakMove) {
        match (mv, self.opening) {
            (CongkakMove::Joint { south, north }, Some(mut opening)) => {
                opening.hands = [
                    self.lift_into_hand(Player::First, south),
                    self.lift_into_hand(Player::Second, north),
                ];
                self.run_opening(opening, None);
            }
            (CongkakMove::Hole(hole), Some(mut opening)) => {
                opening.hands[self.to_move.index()] = self.lift_into_hand(self.to_move, hole);
                self.run_opening(opening, Some(self.to_move));
            }
            (CongkakMove::Hole(hole), None) => {
                let mover = self.to_move;
                let last = self
                    .board
                    .sow(mover, mover, usize::from(hole), RELAY_SOWING);
                let (last, relays) = relay(&mut self.board, mover, last);
                self.last = settle_landing(&mut self.board, mover, last, relays, true);
                let next = if self.last.extra_turn {
                    mover
                } else {
                    mover.opponent()
                };
                self.after_turn(next);
            }
            (CongkakMove::Joint { .. }, None) => {}
        }
    }

    fn simultaneous(&self) -> bool {
        self.opening
            .is_some_and(|o| o.hands == [Hand::Picking, Hand::Picking])
    }

    fn seen_by(&self, player: Player) -> Congkak {
        let mut copy = self.clone();
        if self.simultaneous() {
            copy.to_move = player;
        }
        copy
    }

    fn joint_part(&self, mv: CongkakMove, player: Player) -> u8 {
        match (mv, player) {
            (CongkakMove::Hole(hole), _) => hole,
            (CongkakMove::Joint { south, .. }, Player::First) => south,
            (CongkakMove::Joint { north, .. }, Player::Second) => north,
        }
    }

    fn merge_joint(&self, first: CongkakMove, second: CongkakMove) -> CongkakMove {
        CongkakMove::Joint {
            south: self.joint_part(first, Player::First),
            north: self.joint_part(second, Player::Second),
        }
    }

    fn parse_part(&self, text: &str, player: Player) -> Result<CongkakMove, GameError> {
        if !self.simultaneous() {
            return self.parse_move(text);
        }
        let own = match text.trim().parse::<u8>() {
            Ok(n) if (1..=HOLES as u8).contains(&n) => n - 1,
            _ => {
                return Err(GameError::MalformedMove {
                    text: text.to_string(),
                    reason: format!("expected your hole number, 1 to {HOLES}"),
                });
            }
        };
        // The other part is a placeholder that `merge_joint` replaces.
        let other = self.own_holes(player.opponent()).next().unwrap_or(0);
        Ok(match player {
            Player::First => CongkakMove::Joint {
                south: own,
                north: other,
            },
            Player::Second => CongkakMove::Joint {
                south: other,
                north: own,
            },
        })
    }

    fn format_part(&self, mv: CongkakMove, player: Player) -> String {
        (self.joint_part(mv, player) + 1).to_string()
    }

    /// The end of a round: what each side owned when it ended (store plus refilled holes,
    /// or the final stores), who starts the next round, and the holes burnt.
    fn move_notes(&self, previous: &Congkak) -> Vec<String> {
        if self.over && !previous.over {
            let [south, north] = self.score();
            return vec![format!(
                "round {} ends {south}–{north}: the match is over",
                self.round
            )];
        }
        if self.round == previous.round {
            return self.finished_hand_notes(previous);
        }
        let owned = |side| u32::from(self.board.store(side)) + self.board.row_total(side);
        let burnt = |side| (0..HOLES).filter(|&h| self.board.is_burnt(side, h)).count();
        vec![format!(
            "round {} ends {}–{}; {} starts round {} (burnt holes: South {}, North {})",
            previous.round,
            owned(Player::First),
            owned(Player::Second),
            text::side_name(self.to_move),
            self.round,
            burnt(Player::First),
            burnt(Player::Second)
        )]
    }

    fn last_move_extra_turn(&self) -> bool {
        self.last.extra_turn
    }

    fn player_name(&self, player: Player) -> &'static str {
        text::side_name(player)
    }

    fn last_move_relays(&self) -> u32 {
        u32::from(self.last.relays)
    }

    fn last_move_captured(&self) -> bool {
        self.last.captured
    }

    fn outcome(&self) -> Option<Outcome> {
        self.over.then(|| Outcome::from_score(self.score()))
    }

    fn score(&self) -> [i32; 2] {
        Player::BOTH.map(|p| i32::from(self.board.store(p)))
    }

    fn parse_move(&self, text: &str) -> Result<CongkakMove, GameError> {
        let malformed = |reason: String| GameError::MalformedMove {
            text: text.to_string(),
            reason,
        };
        let hole = |s: &str| match s.trim().parse::<u8>() {
            Ok(n) if (1..=HOLES as u8).contains(&n) => Ok(n - 1),
            _ => Err(malformed(format!(
                "'{}' is not a hole number from 1 to {HOLES}",
                s.trim()
            ))),
        };
        match (text.split_once('/'), self.simultaneous()) {
            (Some((south, north)), true) => Ok(CongkakMove::Joint {
                south: hole(south)?,
                north: hole(north)?,
            }),
            (None, false) => hole(text).map(CongkakMove::Hole),
            (_, true) => Err(malformed(
                "both players choose at once here: write SOUTH/NORTH, like 3/5".to_string(),
            )),
            (_, false) => Err(malformed(format!(
                "expected one hole number from 1 to {HOLES}"
            ))),
        }
    }

    fn format_move(&self, mv: CongkakMove) -> String {
        match mv {
            CongkakMove::Hole(hole) => (hole + 1).to_string(),
            CongkakMove::Joint { south, north } => format!("{}/{}", south + 1, north + 1),
        }
    }

    fn to_position_string(&self) -> String {
        let side = if self.simultaneous() {
            "*"
        } else {
            text::side_letter(self.to_move)
        };
        let mut position = format!("{} {side} r{}", text::board_text(&self.board), self.round);
        if self.round_cap != DEFAULT_ROUND_CAP {
            position.push_str(&format!("/{}", self.round_cap));
        }
        if let Some(opening) = self.opening.filter(|_| !self.simultaneous()) {
            position.push(' ');
            position.push_str(&Congkak::hands_text(&opening));
        }
        position
    }

    fn from_position_string(position: &str) -> Result<Congkak, GameError> {
        let fields = text::fields(
            position,
            6..=7,
            "SOUTH-HOLES NORTH-HOLES SOUTH-STORE NORTH-STORE S|N|* rROUND[/CAP] [hands=…]",
        )?;
        let board = text::parse_board(position, &fields[..4])?;
        if board.pits_per_side() != HOLES {
            return Err(text::malformed(
                position,
                format!("Congkak has {HOLES} holes a side"),
            ));
        }
        let (round, cap) = fields[5]
            .strip_prefix('r')
            .and_then(|r| match r.split_once('/') {
                Some((round, cap)) => Some((round.parse::<u8>().ok()?, cap.parse::<u8>().ok()?)),
                None => Some((r.parse::<u8>().ok()?, DEFAULT_ROUND_CAP)),
            })
            .filter(|&(round, cap)| round >= 1 && cap >= round)
            .ok_or_else(|| {
                text::malformed(
                    position,
                    format!(
                        "'{}' is not rROUND or rROUND/CAP (1 ≤ ROUND ≤ CAP)",
                        fields[5]
                    ),
                )
            })?;
        let opening = match (fields[4], fields.get(6)) {
            ("*", None) => Some(Opening {
                hands: [Hand::Picking; 2],
                step: 0,
            }),
            ("*", Some(_)) => {
                return Err(text::malformed(
                    position,
                    "a simultaneous choice (*) has no hands field",
                ));
            }
            (_, Some(hands)) => Some(Congkak::parse_hands(position, hands)?),
            (_, None) => None,
        };
        if opening.is_some() && round != 1 {
            return Err(text::malformed(
                position,
                "only round 1 opens simultaneously",
            ));
        }
        let to_move = match fields[4] {
            "*" => Player::First,
            side => text::parse_side(position, side)?,
        };
        if let Some(o) = opening {
            Congkak::check_opening(position, &board, &o, to_move, fields[4] == "*")?;
        } else if round == 1 && board.has_burnt() {
            return Err(text::malformed(position, "no hole is burnt before round 2"));
        }
        let mut game = Congkak {
            board,
            to_move,
            round,
            round_cap: cap,
            opening,
            over: false,
            last: Settled::default(),
        };
        if opening.is_none() {
            game.after_turn(to_move);
        }
        Ok(game)
    }

    fn board_lines(&self) -> Vec<String> {
        let turn = if self.over {
            "match over".to_string()
        } else if self.simultaneous() {
            "both choose a hole at once".to_string()
        } else {
            format!("{} to move", text::side_name(self.to_move))
        };
        let status = format!(
            "round {} of at most {}; {turn}; stores: South {} North {}",
            self.round,
            self.round_cap,
            self.board.store(Player::First),
            self.board.store(Player::Second)
        );
        let mut lines = text::board_lines(&self.board, status);
        for (owner, hand) in Player::BOTH
            .iter()
            .zip(self.opening.iter().flat_map(|o| o.hands))
        {
            if let Hand::Sowing { at, seeds, .. } = hand {
                let place = if at.slot == HOLES {
                    "its store".to_string()
                } else {
                    format!("{} {}", text::side_name(at.side), at.slot + 1)
                };
                lines.push(format!(
                    "{}'s hand waits with {seeds} seeds (last dropped at {place})",
                    text::side_name(*owner)
                ));
            }
        }
        lines
    }

    /// Board inputs, then 1 for each burnt hole (own, then the opponent's), then the round
    /// as a fraction of the cap.
    fn input_len(&self) -> usize {
        2 * HOLES + 2 + 2 * HOLES + 1
    }

    fn encode(&self, perspective: Player, out: &mut [f32]) {
        text::encode_board(&self.board, perspective, out);
        let mut slot = 2 * HOLES + 2;
        for side in [perspective, perspective.opponent()] {
            for hole in 0..HOLES {
                out[slot] = f32::from(u8::from(self.board.is_burnt(side, hole)));
                slot += 1;
            }
        }
        out[slot] = f32::from(self.round) / f32::from(self.round_cap);
    }
}
