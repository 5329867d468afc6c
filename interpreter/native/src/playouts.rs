//! Many games of one program in one call, each from its own seed and played to its end by its
//! agents: what a simulation or a benchmark of random playouts asks, without crossing into
//! Python per game or per decision.
//!
//! Each game starts from a start prepared once (`Prepared`), copied rather than built: laying
//! out the start (start values, pieces, a save's start) draws nothing from the generator, so it
//! is the same for every seed; and where setup and play reach the first decision without drawing
//! from it either (Tic-Tac-Toe, Connect Four, Hex: no chance before the first move), the game as
//! it stands there, its memo included, is the same for every seed too, and each seed's game is a
//! copy of it with the seed's generator. A copy goes on exactly as the game `Game::seated` makes
//! for the seed: the same decisions, answers kept and steps spent.

use crate::carry::Start;
use crate::rng::Mt;
use crate::teams::Teams;
use crate::vm::{Agent, Fail, Game, Loaded};
use std::sync::Arc;

/// A program's start, prepared once for games of many seeds.
pub struct Prepared {
    /// The start laid out, setup and play about to run (or the error that stopped it).
    laid: Game,
    /// The game at its first decision (or end), where getting there drew nothing from the
    /// generator: every seed's game is then this one with the seed's generator.
    first: Option<Game>,
    /// Whether a game was run to its first decision yet: whether it drew is then known, since
    /// until a first draw nothing a game does depends on its seed.
    tried: bool,
}

impl Prepared {
    /// The start of games of so many players, in these teams, with this step budget, logging
    /// or not, from a save's `start` if given.
    pub fn new(
        program: Arc<Loaded>,
        players: u32,
        teams: Teams,
        budget: u64,
        logging: bool,
        start: Option<&Start>,
    ) -> Prepared {
        let laid = Game::laid(program, players, teams, 0, budget, logging, start);
        Prepared { laid, first: None, tried: false }
    }

    /// The game of seed `seed`, run to its first decision: as `Game::seated` makes it.
    pub fn game(&mut self, seed: i128) -> Game {
        self.game_drawing(Mt::new(seed))
    }

    /// `game_drawing`, laid over `last` (a game played to its end, whose room it takes:
    /// `Game::copy_from`) where every game starts from the copy at the first decision. The game
    /// is made where `last` holds it and played there: a game is over a kilobyte, and moving it
    /// out of `last`, out of here and back cost three copies of it a game.
    fn laid_over<'a>(&mut self, rng: Mt, last: &'a mut Option<Game>) -> &'a mut Game {
        match (&self.first, last) {
            (Some(first), Some(game)) => {
                game.copy_from(first, Some(rng));
                game
            }
            (_, last) => last.insert(self.game_drawing(rng)),
        }
    }

    /// The game whose chance draws from `rng`, run to its first decision: the game of its seed
    /// for a generator not yet drawn from, and for one that has drawn (a stream's, `Stream`),
    /// the game that goes on from where the generator stands.
    pub fn game_drawing(&mut self, rng: Mt) -> Game {
        if let Some(first) = &self.first {
            let mut game = first.copied();
            game.world.rng = rng;
            return game;
        }
        let fresh = !rng.drawn();
        let mut game = self.laid.copied();
        game.world.rng = rng;
        if game.failed.is_none() {
            game.advance();
        }
        if !self.tried && fresh {
            self.tried = true;
            if !game.world.rng.drawn() {
                self.first = Some(game.copied());
            }
        }
        game
    }
}

/// Games of a seed each, played to their ends one after another, each laid over the game played
/// before it (`Prepared::laid_over`): the room of its places' piles, frames and memo kept rather
/// than dropped, and the prepared start copied anew. Each is the game of its seed, as `play` of
/// `Prepared::game` plays it.
#[derive(Default)]
pub struct Seeded {
    last: Option<Game>,
}

impl Seeded {
    /// The game of `seed`, from the prepared start, played to its end by `answering`.
    pub fn next(
        &mut self,
        prepared: &mut Prepared,
        seed: i128,
        answering: &mut Answering,
    ) -> Result<Played, String> {
        let game = prepared.laid_over(Mt::new(seed), &mut self.last);
        play_in(game, answering)
    }
}

/// Who answers the decisions of games played out: each seat its agent, or one generator for
/// every seat drawing each answer at random, `randrange(the decision's size)`, as a loop
/// `rng = Random(seed); while not over: apply(rng.randrange(size))` draws (a benchmark's, and
/// OpenSpiel's `rng.choice(legal_actions())`): one seeding a game rather than one a seat, and
/// the games that loop plays.
pub enum Answering {
    /// Each seat's agent answers its decisions (as `meeple simulate` plays).
    Seats(Vec<Agent>),
    /// One generator draws every seat's answers.
    OneGenerator(Mt),
}

impl Answering {
    /// Random agents for every seat, each drawing from `Random(seed * 1000 + seat)`, as
    /// agents.py's `make_agents` seeds them.
    pub fn random_seats(seed: i128, players: u32) -> Answering {
        Answering::Seats(
            (0..players).map(|seat| Agent::Random(Mt::new(seed * 1000 + i128::from(seat)))).collect(),
        )
    }

    /// The generators the answers are drawn from.
    fn generators(&mut self) -> impl Iterator<Item = &mut Mt> {
        let (agents, one): (&mut [Agent], Option<&mut Mt>) = match self {
            Answering::Seats(agents) => (agents, None),
            Answering::OneGenerator(rng) => (&mut [], Some(rng)),
        };
        agents.iter_mut().filter_map(generator).chain(one)
    }
}

/// How many games' answering `of_seeds` makes, and seeds together, before it plays them.
const SEEDED_TOGETHER: i128 = 4;

/// The games of seeds `first`, `first + 1`, ... (`games` of them), each from the prepared start
/// laid over the game before it (`Seeded`), answered by what `answering` makes for its seed (or
/// the error it or a game gives). The generators of `SEEDED_TOGETHER` games are made and seeded
/// together (`Mt::seed_together`) before those games are played: a seeding is a chain of 1,248
/// steps each waiting on the one before, and up to four chains go side by side in about the
/// time of one, so four games drawn from one generator each are seeded in the time of one game
/// (two games of two seats, a generator a seat, in the time of one).
pub fn of_seeds(
    prepared: &mut Prepared,
    first: i128,
    games: u32,
    mut answering: impl FnMut(i128) -> Result<Answering, String>,
) -> Result<Vec<Played>, String> {
    let mut seeded = Seeded::default();
    let mut out = Vec::with_capacity(games as usize);
    let end = first + i128::from(games);
    let mut next = first;
    while next < end {
        let seeds = next..end.min(next + SEEDED_TOGETHER);
        next = seeds.end;
        let mut group = seeds.clone().map(&mut answering).collect::<Result<Vec<_>, _>>()?;
        Mt::seed_together(group.iter_mut().flat_map(Answering::generators));
        for (seed, answers) in seeds.zip(&mut group) {
            out.push(seeded.next(prepared, seed, answers)?);
        }
    }
    Ok(out)
}

/// The generators of agents about to play a game out, seeded together (`Mt::seed_together`)
/// rather than each at its first draw: in a game played to its end nearly every seat draws.
pub fn seeded(agents: &mut [Agent]) {
    Mt::seed_together(agents.iter_mut().filter_map(generator));
}

/// The generator an agent draws its answers from, if it has one.
fn generator(agent: &mut Agent) -> Option<&mut Mt> {
    match agent {
        Agent::Random(rng) | Agent::Style { rng, .. } => Some(rng),
        Agent::First | Agent::Mcts { .. } => None,
    }
}

/// Many games drawn from one stream of chance rather than each from its own seed: the game's
/// chance and its agents' answers come from generators seeded once, for the first game as its
/// seed seeds them, each game after it going on from where the game before left them. What a
/// caller asks that needs many random games but not each one replayable alone (a benchmark of
/// playouts: one generator seeded once, as other engines' loops draw theirs); its first game is
/// the game of its seed. The Python engine plays the same games (agents.py's `playouts`).
pub struct Stream {
    /// Who answers, made once for the stream (its generators never seeded again).
    answering: Answering,
    /// The games' chance, as the last game left it.
    chance: Mt,
    /// The games, each laid over the one before (`Seeded`'s way).
    games: Seeded,
}

impl Stream {
    /// A stream from `seed`, who answers made as the game of that seed makes them.
    pub fn new(seed: i128, answering: Answering) -> Stream {
        Stream { answering, chance: Mt::new(seed), games: Seeded::default() }
    }

    /// The stream's next game, from the prepared start, played to its end (laid over the game
    /// played last), its chance going on from where that one left it.
    pub fn next(&mut self, prepared: &mut Prepared) -> Result<Played, String> {
        let chance = std::mem::replace(&mut self.chance, Mt::new(0));
        let game = prepared.laid_over(chance, &mut self.games.last);
        let played = play_in(game, &mut self.answering);
        std::mem::swap(&mut self.chance, &mut game.world.rng);
        played
    }
}

/// How a game played to its end came out: each seat's score and tiebreak and the winners (every
/// member of a winning team, teams.rs), or the error that stopped it.
pub type Outcome = Result<(Vec<i64>, Vec<i64>, Vec<u32>), Fail>;

/// A game played to its end inside the core.
pub struct Played {
    pub choices: Vec<u32>,
    pub turns: u64,
    pub steps: u64,
    pub outcome: Outcome,
}

/// Play `game` to its end, each decision answered by `answering`, and say how it came out.
/// Err: no agent for a seat that must answer (the caller's mistake, not the rules').
pub fn play(mut game: Game, answering: &mut Answering) -> Result<Played, String> {
    play_in(&mut game, answering)
}

/// `play`, the game left where it ended (a stream lays its next game over it, and goes on from
/// its chance generator).
fn play_in(game: &mut Game, answering: &mut Answering) -> Result<Played, String> {
    match answering {
        Answering::Seats(agents) => game.play_out(agents)?,
        Answering::OneGenerator(rng) => drawn_out(game, rng)?,
    }
    let outcome = match game.failed.take() {
        Some(fail) => Err(fail),
        None => ended(game),
    };
    Ok(Played { choices: game.choices.clone(), turns: game.world.turns, steps: game.world.steps, outcome })
}

/// Play `game` to its end, every decision, whoever's, answered by `rng`: `randrange(its size)`.
fn drawn_out(game: &mut Game, rng: &mut Mt) -> Result<(), String> {
    while let Some(pending) = &game.pending {
        let index = rng.randbelow(pending.size() as u64);
        game.apply(index as usize)?;
    }
    Ok(())
}

/// The scores, tiebreaks and winners of a game that ended (an error in a score stops it there).
fn ended(game: &mut Game) -> Outcome {
    let scores = game.scores(false)?;
    let ties = game.scores(true)?;
    let keys: Vec<(i64, i64)> = scores.iter().copied().zip(ties.iter().copied()).collect();
    let winners = game.world.teams.winners(&keys);
    Ok((scores, ties, winners))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Program;

    fn tiny() -> Arc<Loaded> {
        let ir: Program = crate::vm::tiny_program();
        Arc::new(Loaded::new(ir))
    }

    /// Random agents for two seats, a generator each, as `meeple simulate` seats them.
    fn random(seed: i128) -> Answering {
        Answering::random_seats(seed, 2)
    }

    /// One generator of the seed for every seat, as a loop drawing `randrange(size)` answers.
    fn one_generator(seed: i128) -> Answering {
        Answering::OneGenerator(Mt::new(seed))
    }

    /// Both ways of answering a game of a seed.
    const WAYS: [fn(i128) -> Answering; 2] = [random, one_generator];

    /// Every seed's game from the prepared start is the game `seated` makes for it (the same
    /// choices, steps, turns and outcome), copied at its first decision or run from the start
    /// laid out (as for a game that draws before its first decision), or laid over the game of
    /// the seed before it (`Seeded`): answered by a generator a seat or by one for all.
    #[test]
    fn a_game_from_the_prepared_start_is_the_game_built_for_its_seed() {
        let program = tiny();
        let mut at_first = Prepared::new(program.clone(), 2, Teams::alone(2), 100_000, false, None);
        let mut from_laid = Prepared::new(program.clone(), 2, Teams::alone(2), 100_000, false, None);
        from_laid.tried = true;
        let mut seeded = Seeded::default();
        for (seed, way) in (0..20).flat_map(|seed| WAYS.map(|way| (seed, way))) {
            let built = Game::seated(program.clone(), 2, Teams::alone(2), seed, 100_000, false, None);
            let b = play(built, &mut way(seed)).expect("plays");
            for prepared in [&mut at_first, &mut from_laid] {
                let a = play(prepared.game(seed), &mut way(seed)).expect("plays");
                assert_eq!((&a.choices, a.steps, a.turns), (&b.choices, b.steps, b.turns));
                assert_eq!(a.outcome.as_ref().ok(), b.outcome.as_ref().ok());
            }
            // Each laid over the game before it (a finished game of another seed).
            let c = seeded.next(&mut at_first, seed, &mut way(seed)).expect("plays");
            assert_eq!((&c.choices, c.steps, c.turns), (&b.choices, b.steps, b.turns));
            assert_eq!(c.outcome.as_ref().ok(), b.outcome.as_ref().ok());
        }
        assert!(at_first.first.is_some() && from_laid.first.is_none());
    }

    /// The games of seeds played a few at a time, their generators seeded together before
    /// (`of_seeds`), are the games of their seeds played one after another (`Seeded`), for a
    /// number of games that fills its last group of seeds or not, and both ways of answering.
    #[test]
    fn games_whose_generators_are_seeded_together_are_the_games_of_their_seeds() {
        let program = tiny();
        let mut prepared = Prepared::new(program.clone(), 2, Teams::alone(2), 100_000, false, None);
        for (way, games) in WAYS.into_iter().flat_map(|way| [(way, 8), (way, 11)]) {
            let mut seeded = Seeded::default();
            let one_by_one: Vec<Vec<u32>> = (3..3 + games)
                .map(|seed| seeded.next(&mut prepared, seed, &mut way(seed)).expect("plays").choices)
                .collect();
            let together = of_seeds(&mut prepared, 3, games as u32, |seed| Ok(way(seed))).expect("plays");
            assert_eq!(together.into_iter().map(|p| p.choices).collect::<Vec<_>>(), one_by_one);
        }
        let refused =
            of_seeds(&mut prepared, 0, 5, |seed| if seed < 4 { Ok(random(seed)) } else { Err("no".into()) });
        assert_eq!(refused.err().as_deref(), Some("no"));
    }

    /// A game of seed 3 played to its end, and a fresh one of seed 5 to lay over it.
    fn finished_and_fresh() -> (Game, Game) {
        let program = tiny();
        let start = |seed| Game::seated(program.clone(), 2, Teams::alone(2), seed, 100_000, false, None);
        let mut finished = start(3);
        play_in(&mut finished, &mut random(3)).expect("plays");
        (finished, start(5))
    }

    /// A game laid over another (`Game::copy_from`), a finished game of another seed, is the
    /// copy `copied` makes of its source: equal to it, and going on as it goes on (the same
    /// choices, steps and turns: the memo's answers, which save steps, kept too).
    #[test]
    fn a_game_laid_over_a_finished_one_is_a_copy_of_its_source() {
        let (mut finished, source) = finished_and_fresh();
        finished.copy_from(&source, None);
        assert!(finished == source);
        let laid = play(finished, &mut random(5)).expect("plays");
        let copied = play(source.copied(), &mut random(5)).expect("plays");
        assert_eq!((&laid.choices, laid.steps, laid.turns), (&copied.choices, copied.steps, copied.turns));
        assert_eq!(laid.outcome.as_ref().ok(), copied.outcome.as_ref().ok());
    }

    /// A game laid over a finished one with a generator of its own (a seed's game in a stream of
    /// playouts, `Prepared::laid_over`) is its source's copy whose chance draws from that generator.
    #[test]
    fn a_game_laid_over_with_a_generator_given_is_its_source_drawing_from_it() {
        let (mut finished, source) = finished_and_fresh();
        finished.copy_from(&source, Some(Mt::new(7)));
        let mut expected = source.copied();
        expected.world.rng = Mt::new(7);
        assert!(finished == expected);
        assert!(finished != source);
    }

    /// A stream's games are those its agents (or its one generator) play when made once and
    /// never seeded again, each game going on from where the one before left their generators
    /// (from the start copied at its first decision or run from the start laid out); its first
    /// is the game of its seed.
    #[test]
    fn a_stream_of_games_goes_on_from_the_generators_the_game_before_left() {
        for way in WAYS {
            a_stream_goes_on(way);
        }
    }

    fn a_stream_goes_on(way: fn(i128) -> Answering) {
        let program = tiny();
        let mut agents = way(7);
        let by_hand: Vec<Played> = (0..10)
            .map(|_| {
                let built = Game::seated(program.clone(), 2, Teams::alone(2), 7, 100_000, false, None);
                play(built, &mut agents).expect("plays")
            })
            .collect();
        let mut at_first = Prepared::new(program.clone(), 2, Teams::alone(2), 100_000, false, None);
        let mut from_laid = Prepared::new(program.clone(), 2, Teams::alone(2), 100_000, false, None);
        from_laid.tried = true;
        for prepared in [&mut at_first, &mut from_laid] {
            let mut stream = Stream::new(7, way(7));
            for expected in &by_hand {
                let a = stream.next(prepared).expect("plays");
                assert_eq!(
                    (&a.choices, a.steps, a.turns),
                    (&expected.choices, expected.steps, expected.turns)
                );
            }
        }
        let alone = play(at_first.game(7), &mut way(7)).expect("plays");
        assert_eq!(alone.choices, by_hand[0].choices);
        assert!(by_hand.iter().any(|p| p.choices != alone.choices), "the games go on, not start again");
    }

    /// With one generator, every decision, whoever's, is answered by its next
    /// `randrange(decision size)`: the game a loop drawing from `Random(seed)` plays
    /// (`vm::at_every_position`'s), not the game of a generator a seat.
    #[test]
    fn one_generator_answers_every_seats_decisions_in_turn() {
        let program = tiny();
        let mut looped = Vec::new();
        crate::vm::at_every_position(&program, 0..20, |game, _| {
            if game.pending.is_none() {
                looped.push(game.choices.clone());
            }
        });
        let mut seeded = Seeded::default();
        let mut prepared = Prepared::new(program.clone(), 2, Teams::alone(2), 10_000, false, None);
        let drawn: Vec<Vec<u32>> = (0..20)
            .map(|seed| seeded.next(&mut prepared, seed, &mut one_generator(seed)).expect("plays").choices)
            .collect();
        assert_eq!(drawn, looped);
        let by_seat: Vec<Vec<u32>> = (0..20)
            .map(|seed| seeded.next(&mut prepared, seed, &mut random(seed)).expect("plays").choices)
            .collect();
        assert_ne!(by_seat, looped);
    }
}
