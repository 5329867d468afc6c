//! The Python module `meeple.interpreter.native._core`: a loaded program and its games, as
//! interpreter/native/state.py uses them. Values cross as Python ints, bools, texts, None,
//! lists, and tagged tuples (`("cell", location)`) that the Python side maps back to the
//! program's own values; errors cross as `NativeError(kind, detail, at)`.

use crate::carry::Start;
use crate::ir::Program as Ir;
use crate::limits::Entered;
use crate::mcts::{Budget, Rollout, Search};
use crate::playouts::{Answering, Played, Prepared, Stream};
use crate::rng::Mt;
use crate::teams::Teams;
use crate::value::Value;
use crate::vm::{Agent, Event, Fail, FailKind, Game as Machine, Loaded, Said, Short};
use crate::words::Context;
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex};
use std::time::Duration;

create_exception!(_core, NativeError, PyException);

fn to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::None => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Int(n) => n.into_pyobject(py)?.into_any(),
        Value::Text(t) => t.as_ref().into_pyobject(py)?.into_any(),
        Value::Player(s) => tagged(py, "player", &[*s])?,
        Value::Row(r) => tagged(py, "row", &[*r])?,
        Value::Zone(l) => tagged(py, "zone", &[*l])?,
        Value::Cell(l) => tagged(py, "cell", &[*l])?,
        Value::Grid(g) => tagged(py, "grid", &[*g])?,
        Value::KindName(d) => tagged(py, "kind", &[*d])?,
        Value::Piece(loc, pc) => {
            let owner = match pc.owner {
                Some(s) => s.into_pyobject(py)?.into_any(),
                None => py.None().into_bound(py),
            };
            let parts = vec![
                "piece".into_pyobject(py)?.into_any(),
                loc.into_pyobject(py)?.into_any(),
                pc.kind.into_pyobject(py)?.into_any(),
                owner,
            ];
            PyTuple::new(py, parts)?.into_any()
        }
        Value::Cells(_) | Value::FewCells { .. } => to_py(py, &v.cells_listed().unwrap_or_default())?,
        Value::List(items) => {
            let out = PyList::empty(py);
            for item in items.iter() {
                out.append(to_py(py, item)?)?;
            }
            out.into_any()
        }
        Value::Placement(spot) => {
            let parts = vec![
                "placement".into_pyobject(py)?.into_any(),
                spot.grid.into_pyobject(py)?.into_any(),
                PyList::new(py, spot.coords().collect::<Vec<_>>())?.into_any(),
                PyList::new(py, spot.rows.iter())?.into_any(),
                spot.turns.into_pyobject(py)?.into_any(),
            ];
            PyTuple::new(py, parts)?.into_any()
        }
        Value::Area(area) => {
            let parts = vec![
                "area".into_pyobject(py)?.into_any(),
                to_py(py, &area.key)?,
                PyList::new(py, area.cells.iter())?.into_any(),
            ];
            PyTuple::new(py, parts)?.into_any()
        }
        Value::Border(row, cell) => tagged(py, "border", &[*row, *cell])?,
        Value::Route(way) => {
            let path = PyList::empty(py);
            for place in &way.path {
                path.append(to_py(py, place)?)?;
            }
            let parts = vec!["route".into_pyobject(py)?.into_any(), to_py(py, &way.start)?, path.into_any()];
            PyTuple::new(py, parts)?.into_any()
        }
    })
}

fn tagged<'py>(py: Python<'py>, tag: &str, ids: &[u32]) -> PyResult<Bound<'py, PyAny>> {
    let mut parts = vec![tag.into_pyobject(py)?.into_any()];
    for id in ids {
        parts.push(id.into_pyobject(py)?.into_any());
    }
    Ok(PyTuple::new(py, parts)?.into_any())
}

fn raise(fail: &Fail) -> PyErr {
    NativeError::new_err(error_parts(fail))
}

/// An error as it crosses into Python: (kind, detail, at), as `NativeError`'s arguments
/// (interpreter/native/state.py's `core_error` words it).
fn error_parts(fail: &Fail) -> (&'static str, String, Option<u32>) {
    let (kind, detail) = match &fail.kind {
        FailKind::Error(message) => ("error", message.clone()),
        FailKind::BudgetLoop => ("budget_loop", String::new()),
        FailKind::BudgetCall(code) => ("budget_call", code.to_string()),
        FailKind::BudgetList(n) => ("budget_list", n.to_string()),
        FailKind::Recursion(Entered::Code(code)) => ("recursion_code", code.to_string()),
        FailKind::Recursion(Entered::Value(at)) => ("recursion_value", at.to_string()),
        FailKind::Decisions => ("decisions", String::new()),
        FailKind::LogChars => ("log_chars", String::new()),
        FailKind::ValueDepth => ("value_depth", String::new()),
    };
    (kind, detail, fail.at)
}

/// A game `Program.playouts` played to its end, as the core recorded it (interpreter/native's
/// `Playout`): its seed (its own, or its stream's), the option taken at each decision, its turns
/// and steps, each seat's score and tiebreak and the winners (seats from 0), or the error in the
/// rules that stopped it (then no scores and no winners). One object a game, holding nothing
/// CPython's collector tracks: a tuple and four lists a game made a benchmark's thousands of
/// playouts set the collector off again and again over the whole heap of a loaded game (a
/// seventh of the CPU time of 2,000 Tic-Tac-Toe playouts, a quarter of 20,000's:
/// docs/benchmarks.md, the fortieth round). A field becomes a Python value when it is read:
/// `choices` a new list at each reading.
#[pyclass(frozen, module = "meeple.interpreter.native._core", name = "Playout")]
struct Playout {
    #[pyo3(get)]
    seed: i128,
    #[pyo3(get)]
    choices: Vec<u32>,
    #[pyo3(get)]
    turns: u64,
    #[pyo3(get)]
    steps: u64,
    #[pyo3(get)]
    scores: Vec<i64>,
    #[pyo3(get)]
    tiebreaks: Vec<i64>,
    #[pyo3(get)]
    winners: Vec<u32>,
    /// The error in the rules' words (what `worded` made of the core's kind, detail and place),
    /// or None.
    #[pyo3(get)]
    error: Option<Py<PyAny>>,
}

#[pymethods]
impl Playout {
    fn __repr__(&self) -> String {
        let failed = if self.error.is_some() { ", failed" } else { "" };
        format!(
            "Playout(seed={}, {} choices, turns={}, steps={}, winners={:?}{failed})",
            self.seed,
            self.choices.len(),
            self.turns,
            self.steps,
            self.winners
        )
    }
}

/// Who plays a seat inside the core, as interpreter/native/state.py hands it over: "random" or
/// "first", or a search as ("mcts", playouts, seconds, style), one budget of the two given
/// (agents.py reads the agent's name: `mcts`, `mcts:500`, `mcts:2s`, `mcts:500:STYLE`).
#[derive(FromPyObject, Clone)]
enum AgentSpec {
    Named(String),
    Search(String, Option<u32>, Option<f64>, Option<u32>),
}

/// The longest a search may take per decision: a day (a longer one is a mistake, and a
/// Duration of it could overflow).
const MOST_SECONDS: f64 = 86_400.0;

/// A search's settings from its budget (so many playouts, from 1, or so many seconds, more than
/// none) and its style (an index among the lowered styles), checked: a bad one is a ValueError.
fn search_of(
    loaded: &Loaded,
    playouts: Option<u32>,
    seconds: Option<f64>,
    style: Option<u32>,
) -> PyResult<Search> {
    let budget = match (playouts, seconds) {
        (Some(n), None) if n >= 1 => Budget::Playouts(n),
        (None, Some(s)) if s > 0.0 && s <= MOST_SECONDS => Budget::Time(Duration::from_secs_f64(s)),
        _ => {
            return Err(PyValueError::new_err(
                "a search needs one budget: playouts from 1, or seconds more than 0 and at most a day",
            ))
        }
    };
    let rollout = match style {
        None => Rollout::Random,
        Some(s) if (s as usize) < loaded.ir.styles.len() => Rollout::Style(s),
        Some(s) => return Err(PyValueError::new_err(format!("the program has no style {s} to play out"))),
    };
    Ok(Search { budget, rollout })
}

/// What a seat was shown at a place and still knows: (location, seat, [(kind, owner, how many)]).
type Remembered = (u32, u32, Vec<(u32, Option<u32>, u32)>);

/// Each seat's agent (`AgentSpec`): "random", "first", a style the rules declare by its name,
/// or a search; random and style seats draw from `random.Random(seed * 1000 + seat)`, as
/// agents.py's do.
fn agents_of(loaded: &Loaded, agents: Vec<AgentSpec>, seed: i128) -> PyResult<Vec<Agent>> {
    let styles = &loaded.ir.styles;
    let mut made = Vec::new();
    for (seat, agent) in agents.into_iter().enumerate() {
        made.push(match agent {
            AgentSpec::Named(name) if name == "random" => Agent::Random(Mt::new(seed * 1000 + seat as i128)),
            AgentSpec::Named(name) if name == "first" => Agent::First,
            AgentSpec::Named(name) if styles.contains(&name) => Agent::Style {
                style: styles.iter().position(|s| *s == name).unwrap_or_default() as u32,
                rng: Mt::new(seed * 1000 + seat as i128),
            },
            AgentSpec::Search(name, playouts, seconds, style) if name == "mcts" => Agent::Mcts {
                search: search_of(loaded, playouts, seconds, style)?,
                seed: seed * 1000 + seat as i128,
                asked: 0,
            },
            AgentSpec::Named(name) | AgentSpec::Search(name, ..) => {
                return Err(PyValueError::new_err(format!("the native engine has no agent '{name}'")))
            }
        });
    }
    Ok(made)
}

/// Who answers a game of `seed` played out (`Answering`): its seats' agents (`agents_of`), or,
/// with `one_generator`, one generator of the seed drawing every seat's answers, which only
/// random agents can share (a ValueError for any other).
fn answering_of(
    loaded: &Loaded,
    agents: &[AgentSpec],
    seed: i128,
    one_generator: bool,
) -> PyResult<Answering> {
    if !one_generator {
        return Ok(Answering::Seats(agents_of(loaded, agents.to_vec(), seed)?));
    }
    match agents.iter().find(|agent| !matches!(agent, AgentSpec::Named(name) if name == "random")) {
        None => Ok(Answering::OneGenerator(Mt::new(seed))),
        Some(AgentSpec::Named(name) | AgentSpec::Search(name, ..)) => Err(PyValueError::new_err(format!(
            "only random agents draw from one generator for every seat (draw=\"game\"), not '{name}'"
        ))),
    }
}

/// Agents that play several games in turn (a sequence's), each keeping its generator: made by
/// `Game::agents`, against the first game's program (a sequence's games declare the same styles).
#[pyclass(module = "meeple.interpreter.native._core")]
struct Agents {
    made: Vec<Agent>,
}

/// A lowered program, loaded once and shared by its games.
#[pyclass(frozen, module = "meeple.interpreter.native._core")]
struct Program {
    loaded: Arc<Loaded>,
    /// The starts prepared for its games (playouts.rs), by the settings of the games they
    /// start, the most recently used last: a game without a save is a copy of one.
    prepared: Mutex<Vec<(Settings, Prepared)>>,
}

/// What a prepared start is the start of: the seats, their teams, the step budget, logging.
type Settings = (u32, Option<Vec<Vec<u32>>>, u64, bool);

/// The most starts a program keeps prepared (a simulation's games share one).
const PREPARED_MOST: usize = 8;

impl Program {
    /// The start prepared for games of these settings, taken out (`put_back` returns it), or
    /// prepared now.
    fn take_prepared(&self, settings: &Settings, teams: Teams) -> Prepared {
        let mut kept = self.prepared.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        match kept.iter().position(|(s, _)| s == settings) {
            Some(i) => kept.remove(i).1,
            None => {
                let (players, _, budget, logging) = settings;
                Prepared::new(self.loaded.clone(), *players, teams, *budget, *logging, None)
            }
        }
    }

    /// Keep a prepared start for the next games of its settings, forgetting the least recently
    /// used past `PREPARED_MOST`.
    fn put_back(&self, settings: Settings, prepared: Prepared) {
        let mut kept = self.prepared.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        kept.push((settings, prepared));
        if kept.len() > PREPARED_MOST {
            kept.remove(0);
        }
    }
}

#[pymethods]
impl Program {
    #[new]
    fn new(ir_json: &str) -> PyResult<Program> {
        let ir: Ir = serde_json::from_str(ir_json)
            .map_err(|e| PyValueError::new_err(format!("a lowered program that does not load: {e}")))?;
        Ok(Program { loaded: Arc::new(Loaded::new(ir)), prepared: Mutex::new(Vec::new()) })
    }

    /// A new game, run to its first decision (or its end, or an error: see `Game.failure`);
    /// `teams`: the layout it is played in (each team its seats), everyone alone without one;
    /// `start`: what a save made of its start, as JSON (carry.rs). A game without a save is a
    /// copy of a start prepared for games of its settings (playouts.rs): the same game.
    #[pyo3(signature = (players, seed, budget, logging, teams=None, start=None))]
    fn new_game(
        &self,
        players: u32,
        seed: i128,
        budget: u64,
        logging: bool,
        teams: Option<Vec<Vec<u32>>>,
        start: Option<&str>,
    ) -> PyResult<Game> {
        let layout = teams.clone();
        let teams = match teams {
            None => Teams::alone(players),
            Some(layout) => Teams::of_layout(&layout, players).map_err(PyValueError::new_err)?,
        };
        let start: Option<Start> = match start {
            None => None,
            Some(json) => Some(
                serde_json::from_str(json)
                    .map_err(|e| PyValueError::new_err(format!("a start that does not load: {e}")))?,
            ),
        };
        let mut machine = match start {
            Some(start) => {
                Machine::seated(self.loaded.clone(), players, teams, seed, budget, logging, Some(&start))
            }
            None => {
                let settings = (players, layout, budget, logging);
                let mut prepared = self.take_prepared(&settings, teams);
                let machine = prepared.game(seed);
                self.put_back(settings, prepared);
                machine
            }
        };
        machine.rest();
        Ok(Game { machine })
    }

    /// Games of seeds `first`, `first + 1`, ... (`seeds`: the first and how many), each played
    /// to its end inside the core by its agents (`AgentSpec`, seeded for each game as
    /// `Game.play_out` seeds them), without the readable log: what each came to (`PlayedOut`),
    /// in the seeds' order (playouts.rs's `of_seeds`: a few games' generators seeded together). Each game is a copy of a start prepared once (playouts.rs): the game
    /// `new_game` and `play_out` make of the same seed. Python's other threads run meanwhile.
    /// With `stream`, the games are drawn from one stream (playouts.rs's `Stream`) from the
    /// first seed: each goes on from the generators the one before left, none seeded anew.
    /// `draw`: "seat" (each seat's agent draws from its own generator, as `play_out`'s), or
    /// "game" (random agents alone: one generator draws every seat's answers, `randrange` of the
    /// decision's size, seeded with the game's seed, or in a stream once with the first seed:
    /// playouts.rs's `Answering::OneGenerator`); anything else is a ValueError. `worded` makes a
    /// failed game's error in the rules' words from the core's (kind, detail, place)
    /// (`error_parts`); without it the error is that tuple.
    #[pyo3(signature = (players, seeds, agents, budget, teams=None, stream=false, draw="seat", worded=None))]
    #[allow(clippy::too_many_arguments)] // the Python call's own arguments, each named there
    fn playouts<'py>(
        &self,
        py: Python<'py>,
        players: u32,
        seeds: (i128, u32),
        agents: Vec<AgentSpec>,
        budget: u64,
        teams: Option<Vec<Vec<u32>>>,
        stream: bool,
        draw: &str,
        worded: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Vec<Playout>> {
        let (seed, games) = seeds;
        let one_generator = match draw {
            "seat" => false,
            "game" => true,
            _ => return Err(PyValueError::new_err(format!("draw is \"seat\" or \"game\", not {draw:?}"))),
        };
        let layout = teams.clone();
        let teams = match teams {
            None => Teams::alone(players),
            Some(layout) => Teams::of_layout(&layout, players).map_err(PyValueError::new_err)?,
        };
        let loaded = &self.loaded;
        // An agent the core lacks, or one that cannot share the generator, is refused before any game.
        answering_of(loaded, &agents, seed, one_generator)?;
        let settings = (players, layout, budget, false);
        let mut prepared = self.take_prepared(&settings, teams);
        let played = py.detach(|| -> Result<Vec<Played>, String> {
            let answering = |seed| {
                answering_of(loaded, &agents, seed, one_generator)
                    .map_err(|_| "the agents do not fit this program".to_string())
            };
            if !stream {
                return crate::playouts::of_seeds(&mut prepared, seed, games, answering);
            }
            let mut drawn = Stream::new(seed, answering(seed)?);
            (0..games).map(|_| drawn.next(&mut prepared)).collect()
        });
        self.put_back(settings, prepared);
        let seed_of = |n: usize| if stream { seed } else { seed + n as i128 };
        let played = played.map_err(PyValueError::new_err)?;
        played.into_iter().enumerate().map(|(n, p)| recorded(py, seed_of(n), p, worded.as_ref())).collect()
    }
}

/// The record of a game played out from `seed` (its own, or its stream's), its error, if any,
/// in words by `worded`.
fn recorded<'py>(
    py: Python<'py>,
    seed: i128,
    played: Played,
    worded: Option<&Bound<'py, PyAny>>,
) -> PyResult<Playout> {
    let (scores, tiebreaks, winners, error) = match played.outcome {
        Ok((scores, ties, winners)) => (scores, ties, winners, None),
        Err(fail) => {
            let parts = error_parts(&fail);
            let error = match worded {
                Some(worded) => worded.call1(parts)?,
                None => parts.into_pyobject(py)?.into_any(),
            };
            (Vec::new(), Vec::new(), Vec::new(), Some(error.unbind()))
        }
    };
    let (choices, turns, steps) = (played.choices, played.turns, played.steps);
    Ok(Playout { seed, choices, turns, steps, scores, tiebreaks, winners, error })
}

/// A decision's options, as they were when it was asked: each crosses into Python when read.
#[pyclass(frozen, module = "meeple.interpreter.native._core")]
struct Options {
    values: crate::options::Options,
}

#[pymethods]
impl Options {
    fn __len__(&self) -> usize {
        self.values.len()
    }

    fn __getitem__<'py>(&self, py: Python<'py>, index: usize) -> PyResult<Bound<'py, PyAny>> {
        match self.values.get(index) {
            Some(v) => to_py(py, &v),
            None => Err(pyo3::exceptions::PyIndexError::new_err("no such option")),
        }
    }
}

/// One game in progress.
#[pyclass(module = "meeple.interpreter.native._core")]
#[derive(Clone)]
struct Game {
    machine: Machine,
}

#[pymethods]
impl Game {
    /// The decision waiting for an answer: (seat, prompt text index, its options, optional). The
    /// options cross one by one, when read (`Options`): a random player reads one of hundreds.
    fn decision<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyTuple>>> {
        let Some(pending) = &self.machine.pending else {
            return Ok(None);
        };
        let options = Options { values: pending.options.clone() };
        let parts = vec![
            pending.seat.into_pyobject(py)?.into_any(),
            pending.prompt.into_pyobject(py)?.into_any(),
            Bound::new(py, options)?.into_any(),
            pending.optional.into_pyobject(py)?.to_owned().into_any(),
        ];
        Ok(Some(PyTuple::new(py, parts)?))
    }

    /// The actions offered beside the pending decision's options, after them (`offer`): each
    /// one's label (a text index) and its rule's code.
    fn offers(&self) -> Vec<(u32, u32)> {
        let Some(pending) = &self.machine.pending else {
            return Vec::new();
        };
        let open = &self.machine.offers;
        pending.offers.iter().map(|i| (open[*i as usize].label, open[*i as usize].code)).collect()
    }

    /// Answer the pending decision with the option at `index`: the seat that answered.
    fn apply(&mut self, index: usize) -> PyResult<u32> {
        let seat = self.machine.pending.as_ref().map_or(0, |p| p.seat);
        self.machine.apply(index).map_err(PyValueError::new_err)?;
        self.machine.rest();
        Ok(seat)
    }

    /// Play to the end inside the machine, each seat by its agent (`AgentSpec`, `agents_of`).
    /// Python's other threads run meanwhile (a search takes long).
    fn play_out(&mut self, py: Python<'_>, agents: Vec<AgentSpec>, seed: i128) -> PyResult<()> {
        let mut made = agents_of(&self.machine.program, agents, seed)?;
        let machine = &mut self.machine;
        py.detach(|| machine.play_out(&mut made)).map_err(PyValueError::new_err)
    }

    /// Agents that outlive this game (`Agents`), for a sequence's games in turn.
    fn agents(&self, agents: Vec<AgentSpec>, seed: i128) -> PyResult<Agents> {
        Ok(Agents { made: agents_of(&self.machine.program, agents, seed)? })
    }

    /// Play to the end with agents that outlive the game (`Agents`): the games of a sequence
    /// are played by the same agents, each drawing on from where the last game left it, as
    /// the Python engine's agents do (interpreter/sequence.py).
    fn play_with(&mut self, py: Python<'_>, agents: &mut Agents) -> PyResult<()> {
        let (machine, made) = (&mut self.machine, &mut agents.made);
        py.detach(|| machine.play_out(made)).map_err(PyValueError::new_err)
    }

    /// Each option's weight by the style named `style` for the pending decision (None: nothing is
    /// pending, or the style says nothing of it), as a StyleAgent weighs them; the style's error
    /// as NativeError.
    fn weights(&mut self, style: &str) -> PyResult<Option<Vec<f64>>> {
        let Some(index) = self.machine.program.ir.styles.iter().position(|s| s == style) else {
            return Err(PyValueError::new_err(format!("the rules declare no style '{style}'")));
        };
        self.machine.weights(index as u32).map_err(|f| raise(&f))
    }

    /// The option a search prefers for the pending decision (None when nothing is pending), its
    /// generator seeded with `seed`: one budget of `playouts` (from 1) and `seconds`, and its
    /// playouts played by the style at index `style` (`Rollout`), else at random. Python's other
    /// threads run meanwhile: the playtest page answers while a search thinks.
    #[pyo3(signature = (seed, playouts=None, seconds=None, style=None))]
    fn mcts(
        &self,
        py: Python<'_>,
        seed: i128,
        playouts: Option<u32>,
        seconds: Option<f64>,
        style: Option<u32>,
    ) -> PyResult<Option<usize>> {
        let search = search_of(&self.machine.program, playouts, seconds, style)?;
        let machine = &self.machine;
        Ok(py.detach(|| crate::mcts::choose(machine, &search, &mut Mt::new(seed))))
    }

    /// A cell of a grid that grows, by its location: (grid, q, r); None for any other location.
    fn grown_cell(&self, loc: u32) -> Option<(u32, i64, i64)> {
        self.machine.world.grown.cell(loc).map(|(g, q, r, _)| (g, q, r))
    }

    /// A variable of its own (`per` None) or the value at `at` of a store of variables per
    /// owner, as a save reads it (carry.rs).
    fn variable<'py>(&self, py: Python<'py>, store: Option<u32>, at: u32) -> PyResult<Bound<'py, PyAny>> {
        let w = &self.machine.world;
        let found = match store {
            None => w.vars.get(at as usize),
            Some(s) => w.owned.get(s as usize).and_then(|o| o.get(at as usize)),
        };
        to_py(py, found.unwrap_or(&Value::None))
    }

    /// Every variable of its own, by its slot (what a seat's view reads: interpreter/view.py).
    fn variables<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        for v in &self.machine.world.vars {
            out.append(to_py(py, v)?)?;
        }
        Ok(out)
    }

    /// Every store of variables per owner, each its values in the order the core keeps them
    /// (rows.rs: one per owner, or per owner and row side by side).
    fn stores<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        for store in &self.machine.world.owned {
            let values = PyList::empty(py);
            for v in store {
                values.append(to_py(py, v)?)?;
            }
            out.append(values)?;
        }
        Ok(out)
    }

    /// The pieces at every location, by location, each bottom first: (kind, owner's seat).
    fn held(&self) -> Vec<Vec<(u32, Option<u32>)>> {
        let locs = &self.machine.world.locs;
        locs.iter().map(|h| h.iter().map(|p| (p.kind, p.owner)).collect()).collect()
    }

    /// A grid that grows, as it stands: each cell in the order laid, (location, q, r, the row it
    /// shows).
    fn grown(&self, grid: u32) -> Vec<(u32, i64, i64, u32)> {
        self.machine.world.grown.grid_cells(grid).collect()
    }

    /// Where the rules show each option of the pending decision (`shown at`: shown.rs), None
    /// for an option whose place breaks; None when the decision shows its options as they are.
    fn shown<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyList>>> {
        let Some(places) = self.machine.shown() else { return Ok(None) };
        let out = PyList::empty(py);
        for place in &places {
            match place {
                Some(v) => out.append(to_py(py, v)?)?,
                None => out.append(py.None())?,
            }
        }
        Ok(Some(out))
    }

    /// The pieces at a location, bottom first: (kind, owner's seat).
    fn pieces(&self, loc: u32) -> Vec<(u32, Option<u32>)> {
        let held = self.machine.world.locs.get(loc as usize);
        held.map_or_else(Vec::new, |h| h.iter().map(|p| (p.kind, p.owner)).collect())
    }

    /// A grid's cells in the order laid: (location, q, r, its layers bottom first).
    fn cells(&self, grid: u32) -> Vec<(u32, i64, i64, Vec<u32>)> {
        crate::carry::cells(&self.machine.world, grid)
    }

    /// A layer laid, by its number: (its cells, the row each shows, its turn).
    fn layer(&self, id: u32) -> Option<crate::carry::LaidAgain> {
        crate::carry::layer(&self.machine.world, id)
    }

    /// The error that stopped the game, raised as NativeError; nothing when there is none.
    fn check(&self) -> PyResult<()> {
        match &self.machine.failed {
            Some(fail) => Err(raise(fail)),
            None => Ok(()),
        }
    }

    #[getter]
    fn is_over(&self) -> bool {
        self.machine.over
    }

    #[getter]
    fn ended_early(&self) -> bool {
        self.machine.ended_early
    }

    #[getter]
    fn failed(&self) -> bool {
        self.machine.failed.is_some()
    }

    /// Whose turn it is: a seat, or None before the first turn.
    #[getter]
    fn current(&self) -> Option<u32> {
        self.machine.world.current
    }

    #[getter]
    fn turns(&self) -> u64 {
        self.machine.world.turns
    }

    #[getter]
    fn steps(&self) -> u64 {
        self.machine.world.steps
    }

    /// The characters of the readable log the core counted (MAX_LOG_CHARS): what the lines in
    /// words add up to.
    #[getter]
    fn log_chars(&self) -> u64 {
        self.machine.world.log_chars
    }

    #[getter]
    fn choices(&self) -> Vec<u32> {
        self.machine.choices.clone()
    }

    #[getter]
    fn counters(&self) -> Vec<Vec<i64>> {
        self.machine.world.counters.clone()
    }

    /// What moves and draws wanted and did not find: (declaration, row or None, how many), or
    /// for a draw (None, location, how many).
    #[getter]
    fn shortfalls(&self) -> Vec<(Option<u32>, Option<u32>, u64)> {
        let said = |short: &Short| match short {
            Short::Kind(decl, row) => (Some(*decl), *row),
            Short::Draw(loc) => (None, Some(*loc)),
        };
        self.machine
            .world
            .shortfalls
            .iter()
            .map(|(short, n)| {
                let (a, b) = said(short);
                (a, b, *n)
            })
            .collect()
    }

    fn scores(&mut self, tiebreak: bool) -> PyResult<Vec<i64>> {
        self.machine.scores(tiebreak).map_err(|f| raise(&f))
    }

    /// The log's events from `start`: ("chose", seat, prompt, value or None for a pass, only),
    /// ("line", [text index or ("value", v), ...]), ("chance", title, outcome) and ("revealed",
    /// seats, [(location, [(kind, owner or None), ...]), ...]); after a line whose words need
    /// it (words.rs), ("around", [(q, r, row), ...]) or ("sight", [by seat], [by seat]).
    fn events<'py>(&self, py: Python<'py>, start: usize) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        for event in self.machine.world.events.iter().skip(start) {
            let item = match event {
                Event::Chose { seat, prompt, option, only } => {
                    let value = match option {
                        Some(v) => PyTuple::new(py, [to_py(py, v)?])?.into_any(),
                        None => py.None().into_bound(py),
                    };
                    let parts = vec![
                        "chose".into_pyobject(py)?.into_any(),
                        seat.into_pyobject(py)?.into_any(),
                        prompt.into_pyobject(py)?.into_any(),
                        value,
                        only.into_pyobject(py)?.to_owned().into_any(),
                    ];
                    PyTuple::new(py, parts)?.into_any()
                }
                Event::Chance { title, outcome } => {
                    let out = match outcome {
                        Said::Text(t) => t.into_pyobject(py)?.into_any(),
                        Said::Value(v) => PyTuple::new(py, [to_py(py, v)?])?.into_any(),
                    };
                    let parts = vec![
                        "chance".into_pyobject(py)?.into_any(),
                        title.into_pyobject(py)?.into_any(),
                        out,
                    ];
                    PyTuple::new(py, parts)?.into_any()
                }
                Event::Revealed { seats, at } => {
                    let places = PyList::empty(py);
                    for (loc, pieces) in at {
                        let pieces: Vec<(u32, Option<u32>)> =
                            pieces.iter().map(|pc| (pc.kind, pc.owner)).collect();
                        places.append((*loc, pieces))?;
                    }
                    let parts = vec![
                        "revealed".into_pyobject(py)?.into_any(),
                        PyList::new(py, seats.iter())?.into_any(),
                        places.into_any(),
                    ];
                    PyTuple::new(py, parts)?.into_any()
                }
                Event::Context(Context::Around(cells)) => {
                    let parts = vec![
                        "around".into_pyobject(py)?.into_any(),
                        PyList::new(py, cells.iter())?.into_any(),
                    ];
                    PyTuple::new(py, parts)?.into_any()
                }
                Event::Context(Context::Sight { there, before }) => {
                    let parts = vec![
                        "sight".into_pyobject(py)?.into_any(),
                        PyList::new(py, there.iter())?.into_any(),
                        PyList::new(py, before.iter())?.into_any(),
                    ];
                    PyTuple::new(py, parts)?.into_any()
                }
                Event::Line(said) => {
                    let parts = PyList::empty(py);
                    for s in said {
                        match s {
                            Said::Text(t) => parts.append(t)?,
                            Said::Value(v) => parts.append(PyTuple::new(py, [to_py(py, v)?])?)?,
                        }
                    }
                    PyTuple::new(py, ["line".into_pyobject(py)?.into_any(), parts.into_any()])?.into_any()
                }
            };
            out.append(item)?;
        }
        Ok(out)
    }

    /// What `reveal` showed each seat and it still knows (reveal.rs): (location, seat, [(kind,
    /// owner or None, how many), ...]), each seat's pieces in the order it first saw them.
    #[getter]
    fn seen(&self) -> Vec<Remembered> {
        self.machine
            .world
            .seen
            .all()
            .map(|(loc, seat, known)| {
                (loc, seat, known.iter().map(|(pc, n)| (pc.kind, pc.owner, *n)).collect())
            })
            .collect()
    }

    #[getter]
    fn event_count(&self) -> usize {
        self.machine.world.events.len()
    }

    /// A copy of the game, sharing the program: what a search explores.
    fn clone(&self) -> Game {
        Clone::clone(self)
    }

    fn __eq__(&self, other: &Game) -> bool {
        self.machine == other.machine
    }

    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        self.machine.hash(&mut h);
        h.finish()
    }
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Program>()?;
    m.add_class::<Game>()?;
    m.add_class::<Options>()?;
    m.add_class::<Playout>()?;
    m.add_class::<Agents>()?;
    m.add("NativeError", m.py().get_type::<NativeError>())?;
    Ok(())
}
