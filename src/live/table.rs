//! [`Table`], the one implementation of [`LiveGame`]: the seats (people or engines), the
//! shared [`Session`], and the hidden parts of a simultaneous decision until every
//! chooser has chosen.

use crate::arena::{Agent, SearchAgent};
use crate::games::joint::{gather_move, is_joint, parse_part};
use crate::games::{Game, Player};
use crate::live::board::Drawn;
use crate::live::champions::Champions;
use crate::rng::{GameRng, rng_for};
use crate::session::{Session, announce, hints, legal_parts};

use super::view::{Chooser, Hint, Hints, LegalMove, SeatView, View};
use super::{LiveError, LiveGame, Setup, limits_from_now};

/// Who sits on one side.
enum Seat<G: Game> {
    Person,
    Engine(Box<dyn Agent<G>>),
}

/// A live game of type `G`.
pub struct Table<G: Drawn> {
    seats: [Seat<G>; 2],
    specs: [String; 2],
    hint_engine: SearchAgent<G>,
    session: Session<G>,
    rng: GameRng,
    /// At a simultaneous decision, the parts chosen so far (hidden from the page).
    pending: [Option<G::Move>; 2],
    log: Vec<String>,
    resigned: Option<Player>,
}

impl<G: Drawn> Table<G> {
    /// A new game from `start`, its engines playing the champions shared in `champions`.
    pub fn new(start: G, setup: &Setup, champions: &Champions) -> Result<Table<G>, LiveError> {
        let seat = |index: usize| -> Result<Seat<G>, LiveError> {
            Ok(match &setup.players[index] {
                None => Seat::Person,
                Some(spec) => {
                    Seat::Engine(spec.build_with(&|path| champions.get(spec, path, &start))?)
                }
            })
        };
        let hint = &setup.hint_engine;
        let hint_engine = hint
            .searcher_with(&|path| champions.get(hint, path, &start))?
            .ok_or_else(|| {
                LiveError::Setting("the hint engine must search (e.g. heuristic:4)".to_string())
            })?;
        Ok(Table {
            seats: [seat(0)?, seat(1)?],
            specs: [0, 1].map(|i| match &setup.players[i] {
                None => "human".to_string(),
                Some(spec) => spec.to_string(),
            }),
            hint_engine,
            rng: rng_for(setup.seed, &[]),
            session: Session::new(start),
            pending: [None, None],
            log: Vec::new(),
            resigned: None,
        })
    }

    fn game(&self) -> &G {
        self.session.game()
    }

    fn over(&self) -> bool {
        self.resigned.is_some() || self.game().outcome().is_some()
    }

    fn is_person(&self, side: Player) -> bool {
        matches!(self.seats[side.index()], Seat::Person)
    }

    /// The players who choose now.
    fn choosers(&self) -> Vec<Player> {
        if self.over() {
            Vec::new()
        } else if is_joint(self.game()) {
            vec![Player::First, Player::Second]
        } else {
            vec![self.game().to_move()]
        }
    }

    /// The position as `side` chooses in it.
    fn view_of(&self, side: Player) -> G {
        match self.game().joint() {
            Some(joint) => joint.seen_by(side),
            None => self.game().clone(),
        }
    }

    fn first_person(&self) -> Option<Player> {
        [Player::First, Player::Second]
            .into_iter()
            .find(|&p| self.is_person(p))
    }

    fn check_going_on(&self) -> Result<(), LiveError> {
        if self.over() {
            Err(LiveError::not_now("the game is over"))
        } else {
            Ok(())
        }
    }

    /// Plays the move once every chooser has chosen.
    fn play_when_chosen(&mut self) {
        let chosen = gather_move(self.game(), |_, player| {
            self.pending[player.index()].ok_or(())
        });
        if let Ok(mv) = chosen {
            self.pending = [None, None];
            self.session.play(mv);
            let previous = self.session.previous().expect("a move was just played");
            self.log.push(announce(previous, self.game(), mv));
        }
    }
}

impl<G: Drawn> LiveGame for Table<G> {
    fn view(&self, id: u64) -> View {
        let game = self.game();
        let choosers = self
            .choosers()
            .into_iter()
            .map(|side| {
                let view = self.view_of(side);
                Chooser {
                    side: side.index(),
                    human: self.is_person(side),
                    chosen: self.pending[side.index()].is_some(),
                    legal: legal_parts(&view, side)
                        .into_iter()
                        .map(|text| LegalMove {
                            at: view.spot(&text),
                            text,
                        })
                        .collect(),
                }
            })
            .collect();
        let result = match self.resigned {
            Some(side) => Some(format!("{} resigns", game.player_name(side))),
            None => self.session.result(),
        };
        View {
            id,
            game: game.name(),
            seats: [Player::First, Player::Second].map(|side| SeatView {
                name: game.player_name(side),
                player: self.specs[side.index()].clone(),
                human: self.is_person(side),
            }),
            board: game.drawing(),
            choosers,
            score: game.score(),
            log: self.log.clone(),
            moves: self.session.move_texts(),
            over: self.over(),
            recordable: self.resigned.is_none() && game.outcome().is_some(),
            result,
        }
    }

    fn play(&mut self, text: &str, side: Option<Player>) -> Result<(), LiveError> {
        self.check_going_on()?;
        let choosers = self.choosers();
        let side = side_or(side, Some(choosers[0]))?;
        if !choosers.contains(&side) {
            return Err(LiveError::not_now(format!(
                "it is not {}'s turn",
                self.game().player_name(side)
            )));
        }
        if !self.is_person(side) {
            return Err(LiveError::not_now("an engine plays that side"));
        }
        if self.pending[side.index()].is_some() {
            return Err(LiveError::not_now("that side has already chosen"));
        }
        let view = self.view_of(side);
        let mv = parse_part(&view, text, side).and_then(|mv| view.play(mv).map(|_| mv))?;
        self.pending[side.index()] = Some(mv);
        self.play_when_chosen();
        Ok(())
    }

    fn engine_move(&mut self) -> Result<(), LiveError> {
        self.check_going_on()?;
        let engines: Vec<Player> = self
            .choosers()
            .into_iter()
            .filter(|&side| !self.is_person(side) && self.pending[side.index()].is_none())
            .collect();
        if engines.is_empty() {
            return Err(LiveError::not_now("no engine is to move"));
        }
        for side in engines {
            let view = self.view_of(side);
            let Seat::Engine(agent) = &self.seats[side.index()] else {
                unreachable!("engines were filtered above");
            };
            let mv = agent
                .choose(&view, self.session.history(), &mut self.rng)
                .map_err(|forfeit| LiveError::Forfeited(forfeit.reason))?;
            self.pending[side.index()] = Some(mv);
        }
        self.play_when_chosen();
        Ok(())
    }

    fn undo(&mut self, side: Option<Player>) -> Result<(), LiveError> {
        let side = side_or(side, self.first_person())?;
        if self.pending.iter().any(Option::is_some) {
            // A hidden choice at a simultaneous decision is withdrawn first.
            self.pending = [None, None];
            return Ok(());
        }
        if !self.session.undo(side) {
            return Err(LiveError::not_now("nothing to undo"));
        }
        self.log.truncate(self.session.move_texts().len());
        self.resigned = None;
        Ok(())
    }

    fn hints(&self, side: Option<Player>, seconds: f64) -> Result<Hints, LiveError> {
        self.check_going_on()?;
        let choosers = self.choosers();
        let side = side_or(side, Some(choosers[0]))?;
        if !choosers.contains(&side) {
            return Err(LiveError::not_now("hints are for a player who chooses now"));
        }
        let view = self.view_of(side);
        let table = hints(
            &self.hint_engine,
            &view,
            side,
            Some(limits_from_now(seconds)),
        );
        Ok(Hints {
            engine: self.hint_engine.label.clone(),
            side: side.index(),
            hints: table
                .into_iter()
                .map(|(text, value)| Hint { text, value })
                .collect(),
        })
    }

    fn resign(&mut self, side: Option<Player>) -> Result<(), LiveError> {
        self.check_going_on()?;
        let side = side_or(side, self.first_person())?;
        self.resigned = Some(side);
        self.pending = [None, None];
        Ok(())
    }

    fn record(&self) -> Result<String, LiveError> {
        match (self.resigned, self.session.record()) {
            (None, Some(record)) => Ok(record),
            _ => Err(LiveError::not_now(
                "only a game played to its end has a record",
            )),
        }
    }
}

/// The side a request names, else `default`.
fn side_or(side: Option<Player>, default: Option<Player>) -> Result<Player, LiveError> {
    side.or(default)
        .ok_or_else(|| LiveError::not_now("no side given and none applies"))
}
