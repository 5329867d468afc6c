//! The intermediate representation a lowered program arrives in (interpreter/native/lower.py
//! writes it as JSON): plain data, names already resolved to slots and indexes, built-ins by id.
//! Loaded once per program and shared, read-only, by every game of it.

use crate::value::Value;
use serde::Deserialize;
use std::collections::HashMap;

/// The whole program.
#[derive(Deserialize, Debug)]
pub struct Program {
    /// Every kind of piece: the declaration it belongs to, and its row for a piece made per row.
    pub kinds: Vec<KindIr>,
    /// Every place that holds pieces: zone instances first, then every board cell.
    pub locations: Vec<LocIr>,
    pub grids: Vec<GridIr>,
    /// Each row's location, for the rows that are nodes of a map (by index among all rows).
    #[serde(default)]
    pub node_locations: Vec<Option<u32>>,
    /// The triggers (`when KIND enters`): the piece declaration each watches, and its code, whose
    /// first two slots are the piece and the place it entered.
    #[serde(default)]
    pub triggers: Vec<(u32, u32)>,
    /// Each row's column values, by the row's index among all rows, by name (for the questions
    /// that name a column at run time: a shape's `q` and `r`, an area's column).
    #[serde(default)]
    pub rows: Vec<HashMap<String, Value, crate::vm::Fast>>,
    /// The columns expressions read (`AttrIr::Column`), by index: each row's values of them are
    /// laid out in this order once, at load (`Loaded::column`).
    #[serde(default)]
    pub columns: Vec<String>,
    pub vars: Vec<VarIr>,
    /// Variables each player, or each row of a table, has (`var NAME: T = E per OWNER`).
    #[serde(default)]
    pub owned: Vec<OwnedIr>,
    pub pieces: Vec<PieceIr>,
    pub values: Vec<FuncIr>,
    pub code: Vec<CodeIr>,
    /// The movements `routes(START, MOVEMENT, ...)` names, by index (routes.rs).
    #[serde(default)]
    pub movements: Vec<MovementIr>,
    pub setup: Option<u32>,
    pub play: Option<u32>,
    pub score: Option<FuncIr>,
    pub tiebreak: Option<FuncIr>,
    /// Texts the rules show (prompts, log text): statements name them by index.
    pub texts: Vec<String>,
    /// How many counters (`tally`) there are, and whether each counts per seat.
    #[serde(default)]
    pub counters: Vec<bool>,
    /// Where the start of the game fails, for errors there (an index the caller maps to a span).
    pub init_at: u32,
    pub limits: Limits,
    /// How many characters each label and text reads as: what the log's limit counts.
    pub labels: crate::limits::Labels,
    /// The seats the rules play (`automated`), after the players (automata.rs): how many
    /// players there are (every seat from this one on is an automaton), and each automaton.
    #[serde(default)]
    pub humans: Option<u32>,
    #[serde(default)]
    pub automata: Vec<AutomatonIr>,
    /// The preferences of every style, by the site (`at`) of the statement that asks (an
    /// `offer`'s, by its OfferOpen's site).
    #[serde(default)]
    pub prefs: HashMap<u32, Vec<PrefIr>>,
    /// Every style the rules declare, by its index (`PrefIr::style`): an agent plays one by name.
    #[serde(default)]
    pub styles: Vec<String>,
    /// Where a `choose` shows its options (`shown at PLACE`), by the site (`at`) of the statement
    /// that asks: read by a seat's view alone (shown.rs), never by the game.
    #[serde(default)]
    pub shown: HashMap<u32, Expr>,
}

/// A seat the rules play: its name as players read it, and the style it plays (its index among
/// the styles, and its name), if any.
#[derive(Deserialize, Debug)]
pub struct AutomatonIr {
    pub name: String,
    pub style: Option<u32>,
    pub style_name: Option<String>,
}

/// What a preference speaks of: each option of a choice, the yes of a `may "..."`, the pass, or
/// an action offered beside a decision (`prefer offer RULE`, kept at the `offer`'s site).
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
pub enum PrefTarget {
    Option,
    Yes,
    Pass,
    Offer,
}

/// One preference of a style at one asking statement, in the names that statement sees.
#[derive(Deserialize, Debug)]
pub struct PrefIr {
    pub style: u32,
    pub avoid: bool,
    pub target: PrefTarget,
    /// Whether the statement is a `may "..."` (its pass is its no).
    pub ask: bool,
    pub cond: Option<Expr>,
    pub weight: Option<Expr>,
    /// The preference's line and column: its rank among the style's lines.
    pub line: (i64, i64),
    /// Where an error in its condition or weight stands, and where a weight out of range does.
    pub at: u32,
    pub bound_at: u32,
}

/// meeple/limits.py's limits, as the lowering hands them over: each is declared there, once.
#[derive(Deserialize, Debug)]
pub struct Limits {
    pub max_list: usize,
    pub max_pieces: i64,
    pub max_recursion: usize,
    /// How deep declared values may call one another: the core evaluates expressions on its own
    /// stack, which must never overflow.
    pub max_value_depth: u32,
    /// Decisions a game may put to its players (two options or more).
    pub max_decisions: usize,
    /// Characters of a game's readable log, all its lines together.
    pub max_log_chars: u64,
}

#[derive(Deserialize, Debug)]
pub struct KindIr {
    pub decl: u32,
    pub row: Option<u32>,
}

/// A place that holds pieces: a zone instance (owned by a seat or not) or a board cell.
#[derive(Deserialize, Debug)]
pub struct LocIr {
    /// The grid and (q, r) of a cell; None for a zone.
    pub cell: Option<(u32, i64, i64)>,
    /// A zone's owner (a player, a row), or None.
    pub owner: Value,
    /// The row a node of a map of nodes is, if it is one.
    #[serde(default)]
    pub node: Option<u32>,
    /// What a seat may not see of the pieces here, as the rules declare the zone.
    #[serde(default)]
    pub unseen: Unseen,
}

/// Which of a location's pieces a seat may not see: the zone's `hidden`, `private` and `top`
/// flags, as `interpreter/view.py` shows a zone to a seat. A searching player (mcts.rs) deals
/// these pieces again before it looks ahead, so that it searches what it could know.
#[derive(Deserialize, Debug, Clone, Copy, Default, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Unseen {
    /// Every seat sees every piece (a zone without those flags, a cell, a node).
    #[default]
    Nothing,
    /// No seat sees the pieces (`hidden`; `private` to a row of a table).
    All,
    /// Only its owner sees them (`private` to a player).
    ButOwner,
    /// Every seat sees the top piece alone (`top`): the pieces under it are unseen.
    UnderTop,
}

/// A board given by its size: its cells, in reading order, are the locations from `first`.
#[derive(Deserialize, Debug)]
pub struct GridIr {
    pub hex: bool,
    pub first: u32,
    pub cells: Vec<(i64, i64)>,
    /// The seat owning it (a map `per player`), if any: it exists only when that seat plays.
    pub owner: Option<u32>,
    /// A grid that grows: it starts with no cell, and `place` lays them (placement.rs).
    #[serde(default)]
    pub grows: bool,
    /// Its name as players read it (`ecosystem of Player 1`), for errors.
    #[serde(default)]
    pub name: String,
    /// The side of its blocks on a square grid laid in blocks (`grid square blocks K`): shapes go
    /// on whole K x K blocks (placement.rs); 0 or 1 for a grid without blocks.
    #[serde(default)]
    pub block: u32,
}

/// A `movement`: its parameters are its first slots, then `start`; `through` and `ends` test
/// the place in their slot.
#[derive(Deserialize, Debug)]
pub struct MovementIr {
    pub slots: u32,
    pub start: u32,
    pub steps: Expr,
    pub straight: Option<Expr>,
    pub backtracks: Option<Expr>,
    pub through: Option<(u32, Expr)>,
    pub ends: Option<(u32, Expr)>,
    /// `step NAME to PLACES`: where one step goes, NAME in its slot (steps.rs).
    #[serde(default)]
    pub step: Option<(u32, Expr)>,
    /// The step line's site: where an error in what it lists is located.
    #[serde(default)]
    pub step_at: Option<u32>,
}

/// A variable of each owner: its start value, computed for each with `self` in slot 0.
#[derive(Deserialize, Debug)]
pub struct OwnedIr {
    pub init: Expr,
    pub slots: u32,
    /// Its owners: every seat (None), or these rows, in their table's order.
    pub rows: Option<Vec<u32>>,
    /// The bounds it is kept within (`within`), if any.
    pub clamp: Option<(i64, i64)>,
    /// A value for each row of a table as well (`per player, TABLE`): that table's rows, by
    /// index among all rows; each owner's values follow one another in their order (rows.rs).
    #[serde(default)]
    pub by: Option<Vec<u32>>,
}

/// Where `OWNER.NAME` finds a variable: its store for a player, and for each row (by index
/// among all rows) its store and the row's place in it.
#[derive(Deserialize, Debug, Clone)]
pub struct OwnedRef {
    /// Its name: a row of a table without the variable reads its column of that name.
    pub name: String,
    pub player: Option<u32>,
    pub rows: Vec<Option<(u32, u32)>>,
}

#[derive(Deserialize, Debug)]
pub struct VarIr {
    pub init: Expr,
    pub clamp: Option<(i64, i64)>,
    pub slots: u32,
}

/// How the pieces of one declaration are laid out at the start.
#[derive(Deserialize, Debug)]
pub struct PieceIr {
    /// The declaration's name, for the errors of laying its pieces out.
    pub name: String,
    pub kind: u32,
    /// For pieces made one per row of a table (`each TABLE`): every kind, one piece of each.
    #[serde(default)]
    pub each: Option<Vec<u32>>,
    /// With `each`: `count` pieces of each row's kind (`per TABLE`), the row in slot 0.
    #[serde(default)]
    pub per_row: bool,
    pub count: Expr,
    pub per_player: bool,
    /// The zone they start in, or for a zone each player owns, its instance per seat.
    pub zone: Option<Expr>,
    pub own_zone: Option<Vec<u32>>,
    pub at: u32,
}

/// A function of expressions (a declared value, a score): its parameters are its first slots.
#[derive(Deserialize, Debug)]
pub struct FuncIr {
    pub slots: u32,
    pub body: Expr,
    pub at: u32,
}

/// A block of statements run by a frame (a rule, setup, play): its parameters are its first
/// slots; `name` is the text index of its name.
#[derive(Deserialize, Debug)]
pub struct CodeIr {
    pub params: u32,
    pub slots: u32,
    pub instrs: Vec<Step>,
}

/// One instruction and where it stands in the rules (an index the Python side maps to a span
/// and a rule's name).
#[derive(Deserialize, Debug)]
pub struct Step {
    pub at: u32,
    pub op: Instr,
}

#[derive(Deserialize, Debug)]
pub enum LogPart {
    Text(u32),
    Expr(Expr),
}

/// A statement of the lowered program. Its kind is a byte of its own (`repr(u8)`), read with one
/// load where `Game::run` dispatches on it, rather than found in the spare values of a list's
/// capacity among its fields (the niche Rust would otherwise use, about seven instructions at each
/// of the three places a statement's kind is asked).
#[derive(Deserialize, Debug)]
#[repr(u8)]
pub enum Instr {
    Let {
        slot: u32,
        e: Expr,
    },
    SetVar {
        var: u32,
        e: Expr,
        sign: i64,
    },
    /// `set OWNER.NAME to E` (`add`, `subtract`: sign 1, -1).
    SetOwned {
        obj: Expr,
        var: OwnedRef,
        e: Expr,
        sign: i64,
    },
    /// `set OWNER.NAME[ROW] to E` of a variable with a value for each row (rows.rs).
    SetOwnedRow {
        obj: Expr,
        var: OwnedRef,
        row: Expr,
        e: Expr,
        sign: i64,
    },
    Move {
        count: Option<Expr>,
        decl: u32,
        which: Option<Expr>,
        owner: Option<Expr>,
        src: Expr,
        dest: Expr,
        /// Under the pieces already there (`bottom(PLACE)`), not on top of them.
        #[serde(default)]
        bottom: bool,
    },
    MoveRefs {
        pieces: Expr,
        dest: Expr,
        #[serde(default)]
        bottom: bool,
    },
    Jump {
        to: u32,
    },
    JumpUnless {
        cond: Expr,
        to: u32,
    },
    /// A loop's items, taken once at its start (with the loop's condition) into `list`.
    ForStart {
        seq: Expr,
        cond: Option<Expr>,
        var: u32,
        list: u32,
        index: u32,
    },
    /// The next item into `var`, a step of the budget; past the last, to `end`.
    ForNext {
        var: u32,
        list: u32,
        index: u32,
        end: u32,
    },
    /// A `while` going round once more: a step of the budget.
    Spend,
    RepeatStart {
        count: Expr,
        counter: u32,
    },
    RepeatNext {
        counter: u32,
        end: u32,
    },
    Call {
        code: u32,
        args: Vec<Expr>,
    },
    Turn {
        player: Expr,
    },
    Choose {
        seq: Expr,
        cond: Option<Expr>,
        var: u32,
        chooser: Option<Expr>,
        prompt: u32,
        optional: bool,
        has_orelse: bool,
        orelse: u32,
    },
    Log {
        parts: Vec<LogPart>,
    },
    /// `reveal PIECES to PLAYERS` (reveal.rs).
    Reveal {
        pieces: Expr,
        to: Expr,
    },
    /// `may "PROMPT" [by P]:` a yes-or-no question; "no" goes to `orelse`.
    Ask {
        chooser: Option<Expr>,
        prompt: u32,
        orelse: u32,
    },
    /// `random TITLE:` its outcomes' chances (None: what is left of 100), their names, and where
    /// each outcome's block starts.
    Random {
        title: u32,
        weights: Vec<Option<Expr>>,
        names: Vec<u32>,
        targets: Vec<u32>,
    },
    /// `pick VAR at random from SEQ where COND:`, to `orelse` when nothing fits.
    Pick {
        seq: Expr,
        cond: Option<Expr>,
        var: u32,
        title: u32,
        orelse: u32,
    },
    Shuffle {
        zone: Expr,
    },
    Draw {
        count: Expr,
        src: Expr,
        dest: Expr,
        #[serde(default)]
        bottom: bool,
    },
    /// `place SHAPE on GRID [at PLACEMENT] [over]` on a grid that grows.
    Place {
        shape: Expr,
        grid: Expr,
        at: Option<Expr>,
        /// A layer over cells that are all there (layers.rs), not new cells.
        #[serde(default)]
        over: bool,
    },
    /// `lift LAYER`: the top layer taken off (layers.rs).
    Lift {
        layer: Expr,
    },
    /// `shift GRID by DQ, DR`: a grid that grows moved, its layers and pieces with it (shift.rs).
    Shift {
        grid: Expr,
        dq: Expr,
        dr: Expr,
    },
    /// The next item of a loop whose order a player chooses (`for each ... chosen by P`): the
    /// items left are in `list`, the seat in `who`; past the last, to `end`. The item chosen
    /// goes to `var`, and `Chosen` takes it off the list.
    ChooseNext {
        var: u32,
        list: u32,
        who: u32,
        prompt: u32,
        end: u32,
    },
    Chosen {
        var: u32,
        list: u32,
    },
    Tally {
        counter: u32,
        player: Option<Expr>,
        amount: Option<Expr>,
    },
    /// `offer RULE(ARGS) to P [where COND] [as LABEL]:` begins: while its block runs, every
    /// decision of P also offers the rule `code` (with these arguments, bound now), while `cond`
    /// holds (read with the names of the offering frame as they are then); `label` is its
    /// option's text (offers.rs).
    OfferOpen {
        code: u32,
        args: Vec<Expr>,
        player: Expr,
        cond: Option<Expr>,
        label: u32,
    },
    /// The innermost `offer` block ends: its action is offered no more.
    OfferClose,
    EndGame,
    Return,
    /// A trigger's body begins, its condition met: a call under way from here (MAX_RECURSION).
    Enter,
}

#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    And,
    Or,
    Add,
    Sub,
    Mul,
    FloorDiv,
    Mod,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    NotIn,
    Range,
}

/// The built-in functions the core runs, by id.
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Builtin {
    Count,
    Sum,
    Min,
    Max,
    Any,
    All,
    Abs,
    Pieces,
    Cells,
    Cell,
    Distance,
    InARow,
    Connected,
    Neighbours,
    NextPlayer,
    PlayersFrom,
    /// `flat(LISTS)`: a list of lists joined into one list, in order.
    Flat,
    /// `next_to(AREA)`, `corner_to(AREA)`, `borders(PLACEMENT)`, `placement(GRID, SHAPE, X, Y,
    /// TURNS)` (areas.rs, placement.rs).
    NextTo,
    CornerTo,
    Borders,
    PlacementAt,
    /// `block(GRID, X, Y)`: the top layer on a block (layers.rs).
    BlockAt,
    /// `team(p)`, `teammates(p)`: p's team in seat order, and the others of it (teams.rs).
    Team,
    Teammates,
    /// `automated(p)`: whether p is a seat the rules play (automata.rs).
    Automated,
}

/// An attribute, resolved by what the object is at run time.
#[derive(Deserialize, Debug, Clone, PartialEq, Eq)]
pub enum AttrIr {
    Q,
    R,
    Seat,
    Owner,
    Kind,
    Location,
    Row,
    /// A row's column, by its index in `Program::columns`.
    Column(u32),
    /// An attribute of a placement or a route, by name (placement.rs).
    Shaped(String),
}

/// An expression of the lowered program. Its variant is a byte of its own (`repr(u8)`), as
/// `Instr`'s is, read at once by each `match` of the evaluator, rather than kept in the spare values of a list's capacity and
/// decoded at each (measured: 2.5-4.3% of every bundled game's instructions measured in
/// docs/benchmarks.md; an expression takes a word more room at most).
#[derive(Deserialize, Debug, Clone)]
#[repr(u8)]
pub enum Expr {
    Const(Value),
    Local(u32),
    Var(u32),
    Players,
    Current,
    PlayerCount,
    Attr(Box<Expr>, AttrIr),
    Index(Box<Expr>, Box<Expr>),
    Neg(Box<Expr>),
    Not(Box<Expr>),
    Bin(BinOp, Box<Expr>, Box<Expr>),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    List(Vec<Expr>),
    /// `[each x in seq where cond]`, x in the slot.
    Filter {
        seq: Box<Expr>,
        slot: u32,
        cond: Box<Expr>,
    },
    /// `[each x in seq where cond ranked by K1, K2...]`: the filtered `items`, highest K1 first,
    /// then highest K2, then in the list's order (each key read with the item in `slot`).
    Ranked {
        items: Box<Expr>,
        slot: u32,
        keys: Vec<Expr>,
    },
    /// `[e for each x in seq where cond]`.
    Map {
        seq: Box<Expr>,
        slot: u32,
        e: Box<Expr>,
        cond: Option<Box<Expr>>,
    },
    /// A declared value, with its arguments.
    Value(u32, Vec<Expr>),
    Builtin(Builtin, Vec<Expr>),
    /// The places next to a place: a cell's neighbours on its grid, a node's along the edges
    /// given (each node's neighbours, by row index).
    NextTo(Box<Expr>, Vec<Vec<u32>>),
    /// `region(NODE, ATTR)` (`many`: `regions(NODES, ATTR)`): places joined by edges (or sides)
    /// whose `key`, read with the place in `slot`, is the same.
    Regions {
        seq: Box<Expr>,
        slot: u32,
        key: Box<Expr>,
        adjacency: Vec<Vec<u32>>,
        many: bool,
    },
    /// A call whose own errors the rules locate at the call, not at its statement (a question
    /// about a grid, a map or a movement, a look-ahead: a statement may ask several), with the
    /// call's site: vm.rs's `located`. Errors of its arguments, and of what it asks inside (a
    /// look-ahead's question, a movement's conditions), keep their own place.
    At(u32, Box<Expr>),
    /// `as_if_laid(PLACEMENT, X)`: X as if the placement were laid (layers.rs).
    AsIfLaid(Box<Expr>, Box<Expr>),
    /// `as_if_moved(PIECES, PLACE, X)`: X as if the pieces were moved there (supposed.rs).
    AsIfMoved(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `fewest_steps(START, PLACES, MOVEMENT, ARGS...)` of a movement with a `step` line
    /// (steps.rs).
    FewestSteps {
        movement: u32,
        start: Box<Expr>,
        goals: Box<Expr>,
        args: Vec<Expr>,
    },
    /// `areas(GRID, COLUMN)` (`many`) or `area(CELL, COLUMN)` on a grid that grows (areas.rs).
    Areas {
        of: Box<Expr>,
        column: std::sync::Arc<str>,
        many: bool,
    },
    /// `OWNER.NAME` of a variable each player or row has.
    Owned(Box<Expr>, OwnedRef),
    /// `OWNER.NAME[ROW]` of a variable with a value for each row of a table (rows.rs).
    OwnedRow(Box<Expr>, OwnedRef, Box<Expr>),
    /// `OWNER.zone` of a zone each player (or each row of a table) owns: its location by seat,
    /// and by row index.
    ZoneOf(Box<Expr>, Vec<Option<u32>>, Vec<Option<u32>>),
    /// `side(GRID, word)`: the directions (indexes) a cell of the side has no cell beyond.
    Side(Box<Expr>, Vec<u32>),
    /// `OWNER.grid` of a grid map each player has: the grid by seat.
    GridOf(Box<Expr>, Vec<Option<u32>>),
    /// `placements(GRID, SHAPE)`; `faces`: each row's look apart from its coordinates (by index
    /// among all rows), which square grids compare.
    Placements {
        grid: Box<Expr>,
        shape: Box<Expr>,
        faces: Vec<u32>,
    },
    /// `routes(START, MOVEMENT, ARGS...)`.
    Routes {
        movement: u32,
        start: Box<Expr>,
        args: Vec<Expr>,
    },
}
