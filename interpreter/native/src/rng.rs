//! CPython's random number generator, reimplemented exactly: the Mersenne Twister seeded as
//! `random.Random(int_seed)` seeds it (`init_by_array` of the seed's 32-bit words), with
//! `getrandbits`, `randrange` (`_randbelow_with_getrandbits`), `random` (53 bits) and `shuffle`
//! (CPython 3.11's). A seed and a list of choices must mean the same game on either engine, so
//! every draw the Python engine makes is made here the same way, from the same state.

use std::sync::OnceLock;

const N: usize = 624;
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER_MASK: u32 = 0x8000_0000;
const LOWER_MASK: u32 = 0x7fff_ffff;

/// The generator's whole state: 624 words and the position in them (plain data: it is part of a
/// game's position, copied with it, compared and hashed with it).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Mt {
    /// Empty until the first draw: seeding goes twice over the 624 words, and many games
    /// (and each copy a search makes) never draw.
    state: Vec<u32>,
    /// The next word to draw, renewed as it is drawn (`next_u32`): the words from it on are
    /// the round before's.
    index: usize,
    /// The seed's 32-bit words, from which the state is made at the first draw.
    key: Vec<u32>,
}

/// The state `init_genrand(19650218)` makes, where every seeding starts: made once.
fn start() -> &'static [u32; N] {
    static START: OnceLock<[u32; N]> = OnceLock::new();
    START.get_or_init(|| {
        let mut state = [0u32; N];
        state[0] = 19_650_218;
        for i in 1..N {
            let prev = state[i - 1];
            state[i] = 1_812_433_253u32.wrapping_mul(prev ^ (prev >> 30)).wrapping_add(i as u32);
        }
        state
    })
}

/// How many generators `seed_together` seeds at once.
const LANES: usize = 4;

/// The states `init_by_array` makes for keys of one word each (every seed below 2**32), one
/// state per word. Its two runs over the words are laid out as straight loops, without the
/// wrapping of the word's and the key's positions tested at every step (the same steps in the
/// same order), each word's predecessor carried from the step before rather than read back;
/// the keys' chains go side by side, a lane each. Each lane's state starts as a copy of the
/// start (`init_genrand(19650218)`'s, made once), as CPython's does, and is changed where it
/// lies: it is the generator's own list, not an array zeroed first and copied into one after
/// (about a fifth of a seeding's instructions).
// Each step goes across the lanes' states at one position: indexes step them together.
#[allow(clippy::needless_range_loop)]
fn by_words<const L: usize>(words: [u32; L]) -> [Vec<u32>; L] {
    let start = start();
    let mut states: [Vec<u32>; L] = std::array::from_fn(|_| start.to_vec());
    // Each state as an array of N words: its positions need no checking against its length.
    let mt = states.each_mut().map(|s| <&mut [u32; N]>::try_from(s.as_mut_slice()).expect("N words"));
    let first = |prev: u32, at: u32, word: u32| {
        (at ^ (prev ^ (prev >> 30)).wrapping_mul(1_664_525)).wrapping_add(word)
    };
    let second = |prev: u32, at: u32, i: usize| {
        (at ^ (prev ^ (prev >> 30)).wrapping_mul(1_566_083_941)).wrapping_sub(i as u32)
    };
    // The first run: N steps, over words 1 to N - 1, then word 1 again (word 0 takes N - 1's).
    let mut prev = [start[0]; L];
    for i in 1..N {
        for l in 0..L {
            prev[l] = first(prev[l], mt[l][i], words[l]);
            mt[l][i] = prev[l];
        }
    }
    for l in 0..L {
        mt[l][0] = prev[l];
        prev[l] = first(prev[l], mt[l][1], words[l]);
        mt[l][1] = prev[l];
    }
    // The second: N - 1 steps, over words 2 to N - 1, then word 1 (word 0 would take N - 1's,
    // but is set below, as CPython sets it).
    for i in 2..N {
        for l in 0..L {
            prev[l] = second(prev[l], mt[l][i], i);
            mt[l][i] = prev[l];
        }
    }
    for l in 0..L {
        mt[l][1] = second(prev[l], mt[l][1], 1);
        mt[l][0] = 0x8000_0000;
    }
    states
}

/// Each generator of a group given the state made for it, in order.
fn seat<const L: usize>(group: &mut [Option<&mut Mt>], states: [Vec<u32>; L]) {
    for (g, state) in group.iter_mut().flatten().zip(states) {
        g.key.clear();
        g.state = state;
    }
}

impl Mt {
    /// The generator `random.Random(seed)` makes: the absolute value of the seed, cut into
    /// 32-bit words from the least significant (one word 0 for a seed of 0).
    pub fn new(seed: i128) -> Mt {
        let mut n = seed.unsigned_abs();
        let mut key = Vec::new();
        while n > 0 {
            key.push((n & 0xffff_ffff) as u32);
            n >>= 32;
        }
        if key.is_empty() {
            key.push(0);
        }
        Mt { state: Vec::new(), index: 0, key }
    }

    /// Whether anything was drawn yet: until then, the generator is its seed alone.
    pub fn drawn(&self) -> bool {
        !self.state.is_empty()
    }

    /// The state the seed makes (`init_by_array`), at the first draw.
    fn seed_now(&mut self) {
        let key = std::mem::take(&mut self.key);
        self.init_by_array(&key);
    }

    /// CPython's `init_by_array`, each word's predecessor carried from the step before rather
    /// than read back from the state (a chain of 1,248 dependent steps: it is most of a
    /// seeding's time).
    fn init_by_array(&mut self, key: &[u32]) {
        if let [word] = key {
            return self.init_by_word(*word);
        }
        self.state = start().to_vec();
        let mt = &mut self.state;
        let (mut i, mut j) = (1usize, 0usize);
        let mut prev = mt[0];
        for _ in 0..N.max(key.len()) {
            prev = (mt[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            mt[i] = prev;
            i += 1;
            j += 1;
            if i >= N {
                mt[0] = prev;
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..N - 1 {
            prev = (mt[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
            mt[i] = prev;
            i += 1;
            if i >= N {
                mt[0] = prev;
                i = 1;
            }
        }
        mt[0] = 0x8000_0000;
    }

    /// `init_by_array` of a key of one word (every seed below 2**32: each random agent's).
    fn init_by_word(&mut self, word: u32) {
        let [state] = by_words([word]);
        self.state = state;
    }

    /// Seed these generators now, those of one word not yet drawn from several at a time
    /// (`by_words`), rather than each at its first draw: for the seats of a game about to be
    /// played out, nearly every one of which draws. A seeding is a chain of 1,248 steps, each
    /// waiting on the one before; the chains of several generators, interleaved, run side by
    /// side in the time of one. Each comes out as its own seeding would make it.
    /// The generators waiting are taken a group of up to `LANES` at a time, with no list made
    /// for them (nor for the states made, which go straight to their generators).
    pub fn seed_together<'a>(generators: impl IntoIterator<Item = &'a mut Mt>) {
        // Fused: a group's generators are its first slots, each seeded by its slot's word.
        let mut waiting = generators.into_iter().filter(|g| !g.drawn() && g.key.len() == 1).fuse();
        loop {
            let mut group: [Option<&mut Mt>; LANES] = Default::default();
            let mut n = 0;
            for slot in &mut group {
                *slot = waiting.next();
                n += usize::from(slot.is_some());
            }
            let w: [u32; LANES] = std::array::from_fn(|i| group[i].as_ref().map_or(0, |g| g.key[0]));
            match n {
                0 => return,
                1 => seat(&mut group, by_words([w[0]])),
                2 => seat(&mut group, by_words([w[0], w[1]])),
                3 => seat(&mut group, by_words([w[0], w[1], w[2]])),
                _ => seat(&mut group, by_words(w)),
            }
        }
    }

    /// The next 32 random bits (`genrand_uint32`). The words are renewed one at a time, as each
    /// is drawn, rather than all 624 at once when the last is used up: renewing word i reads
    /// words i + 1 and i + 397 (mod 624), and, as in CPython's loop, those past it are still the
    /// old ones and those before it the new ones, so each word comes out as CPython makes it. A
    /// random agent draws a handful of words in a short game (9 squares), and its seeding had
    /// paid for 624.
    pub fn next_u32(&mut self) -> u32 {
        if self.state.is_empty() {
            self.seed_now();
        }
        if self.index >= N {
            self.index = 0;
        }
        let i = self.index;
        let mt = &mut self.state;
        let (next, far) = (mt[(i + 1) % N], mt[(i + M) % N]);
        let y = (mt[i] & UPPER_MASK) | (next & LOWER_MASK);
        mt[i] = far ^ (y >> 1) ^ if y & 1 == 1 { MATRIX_A } else { 0 };
        let mut y = mt[i];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^= y >> 18;
        y
    }

    /// `getrandbits(k)` for k up to 64: whole words from the least significant, the last one
    /// cut to what is left.
    pub fn getrandbits(&mut self, k: u32) -> u64 {
        if k == 0 {
            return 0;
        }
        if k <= 32 {
            return u64::from(self.next_u32() >> (32 - k));
        }
        let low = u64::from(self.next_u32());
        let high = u64::from(self.next_u32() >> (64 - k));
        (high << 32) | low
    }

    /// `randrange(n)` for n ≥ 1 (`_randbelow_with_getrandbits`): draws of n's bit length
    /// until one is below n.
    pub fn randbelow(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        let k = 64 - n.leading_zeros();
        loop {
            let r = self.getrandbits(k);
            if r < n {
                return r;
            }
        }
    }

    /// `random()`: a float in [0, 1) from 53 random bits.
    pub fn random(&mut self) -> f64 {
        let a = f64::from(self.next_u32() >> 5);
        let b = f64::from(self.next_u32() >> 6);
        (a * 67_108_864.0 + b) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// `shuffle(items)` as CPython 3.11 does it: from the last item down, each swapped with one
    /// at or before it.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.randbelow(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Mt;
    use std::process::Command;

    /// What CPython itself draws from `random.Random(seed)`, one line per number: the reference
    /// these tests compare with (skipped where no `python3` runs).
    fn cpython(script: &str) -> Option<Vec<String>> {
        let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".to_string());
        let out = Command::new(python).arg("-c").arg(script).output().ok()?;
        if !out.status.success() {
            return None;
        }
        Some(String::from_utf8(out.stdout).ok()?.lines().map(str::to_string).collect())
    }

    const SEEDS: [i128; 7] = [0, 1, 7, -5, 4_294_967_296, 123_456_789_012, 1_000_003];

    #[test]
    fn randrange_draws_what_cpython_draws() {
        let script = "import random\nfor s in [0, 1, 7, -5, 4294967296, 123456789012, 1000003]:\n    r = random.Random(s)\n    print(' '.join(str(r.randrange(n)) for n in [1, 2, 3, 7, 10, 100, 1000, 2**31 + 5, 2**40 + 3, 5]))";
        let Some(expected) = cpython(script) else {
            return;
        };
        for (seed, line) in SEEDS.iter().zip(expected) {
            let mut mt = Mt::new(*seed);
            let got: Vec<String> = [1u64, 2, 3, 7, 10, 100, 1000, (1 << 31) + 5, (1 << 40) + 3, 5]
                .iter()
                .map(|n| mt.randbelow(*n).to_string())
                .collect();
            assert_eq!(got.join(" "), line, "seed {seed}");
        }
    }

    #[test]
    fn random_and_getrandbits_draw_what_cpython_draws() {
        let script = "import random\nfor s in [0, 1, 7, -5, 4294967296, 123456789012, 1000003]:\n    r = random.Random(s)\n    print(repr(r.random()), r.getrandbits(5), r.getrandbits(32), r.getrandbits(33), r.getrandbits(64), repr(r.random()))";
        let Some(expected) = cpython(script) else {
            return;
        };
        for (seed, line) in SEEDS.iter().zip(expected) {
            let mut mt = Mt::new(*seed);
            let got = format!(
                "{:?} {} {} {} {} {:?}",
                mt.random(),
                mt.getrandbits(5),
                mt.getrandbits(32),
                mt.getrandbits(33),
                mt.getrandbits(64),
                mt.random()
            );
            assert_eq!(got, line, "seed {seed}");
        }
    }

    #[test]
    fn shuffle_orders_as_cpython_does() {
        let script = "import random\nfor s in [0, 1, 7, -5, 4294967296, 123456789012, 1000003]:\n    r = random.Random(s)\n    x = list(range(30))\n    r.shuffle(x)\n    y = list(range(3))\n    r.shuffle(y)\n    print(' '.join(map(str, x + y)))";
        let Some(expected) = cpython(script) else {
            return;
        };
        for (seed, line) in SEEDS.iter().zip(expected) {
            let mut mt = Mt::new(*seed);
            let mut x: Vec<u32> = (0..30).collect();
            mt.shuffle(&mut x);
            let mut y: Vec<u32> = (0..3).collect();
            mt.shuffle(&mut y);
            x.extend(y);
            let got: Vec<String> = x.iter().map(u32::to_string).collect();
            assert_eq!(got.join(" "), line, "seed {seed}");
        }
    }

    #[test]
    fn words_drawn_past_many_rounds_of_624_are_cpythons() {
        let script = "import random\nfor s in [0, 1, 7, -5, 4294967296, 123456789012, 1000003]:\n    r = random.Random(s)\n    w = [r.getrandbits(32) for _ in range(2000)]\n    print(' '.join(str(w[i]) for i in [0, 226, 227, 396, 397, 622, 623, 624, 625, 1247, 1248, 1999]))";
        let Some(expected) = cpython(script) else {
            return;
        };
        for (seed, line) in SEEDS.iter().zip(expected) {
            let mut mt = Mt::new(*seed);
            let words: Vec<u32> = (0..2000).map(|_| mt.next_u32()).collect();
            let got: Vec<String> = [0, 226, 227, 396, 397, 622, 623, 624, 625, 1247, 1248, 1999]
                .iter()
                .map(|i: &usize| words[*i].to_string())
                .collect();
            assert_eq!(got.join(" "), line, "seed {seed}");
        }
    }

    /// Generators seeded several at a time draw what each seeded alone at its first draw
    /// draws: six of one word (a group of four and one of two), one drawn from before and
    /// one of two words, both left to themselves.
    #[test]
    fn generators_seeded_together_draw_as_each_seeded_alone() {
        let seeds: [i128; 8] = [0, 1, 7, 1000, 1001, 4_294_967_295, 4_294_967_296, -5];
        let mut together: Vec<Mt> = seeds.iter().map(|s| Mt::new(*s)).collect();
        together[2].next_u32();
        let mut alone = together.clone();
        Mt::seed_together(together.iter_mut());
        let seeded: Vec<bool> = together.iter().map(Mt::drawn).collect();
        assert_eq!(seeded, [true, true, true, true, true, true, false, true]);
        for (a, b) in together.iter_mut().zip(&mut alone) {
            let drawn: Vec<u32> = (0..1300).map(|_| a.next_u32()).collect();
            let expected: Vec<u32> = (0..1300).map(|_| b.next_u32()).collect();
            assert_eq!(drawn, expected);
        }
    }

    #[test]
    fn the_first_word_of_seed_zero_is_the_known_one() {
        // A check that needs no Python: CPython's random.Random(0).getrandbits(32).
        assert_eq!(Mt::new(0).next_u32(), 3_626_764_237);
    }
}
