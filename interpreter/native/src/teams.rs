//! Teams: seats grouped so that they share their victory (docs/language.md#teams), as
//! interpreter/teams.py has them.
//!
//! The layout is chosen when a game starts, like its seed, and never changes: it is part of
//! the game (a copy shares it), read by `team(p)` and `teammates(p)`, and it decides who wins.
//! The Python side checks a layout (`teams.check_layout`) before it reaches the core; the core
//! still refuses one that does not seat every seat once, rather than trust it.

use std::sync::Arc;

/// Every seat's team: its members in seat order, the seat among them.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Teams {
    of: Arc<[Vec<u32>]>,
}

impl Teams {
    /// Every seat alone: a game played without teams.
    pub fn alone(seats: u32) -> Teams {
        Teams { of: (0..seats).map(|s| vec![s]).collect() }
    }

    /// The teams of a layout (each team its seats), every seat it does not name alone (a seat
    /// the rules play, or every seat of a game without a layout), as `teams.teams_of` makes
    /// them. An error names a seat out of range or named twice.
    pub fn of_layout(layout: &[Vec<u32>], seats: u32) -> Result<Teams, String> {
        let mut of: Vec<Option<Vec<u32>>> = vec![None; seats as usize];
        for team in layout {
            let mut members = team.clone();
            members.sort_unstable();
            for &seat in team {
                match of.get_mut(seat as usize) {
                    None => return Err(format!("seat {} is not a seat of this game", seat + 1)),
                    Some(Some(_)) => return Err(format!("seat {} is in a team twice", seat + 1)),
                    Some(place) => *place = Some(members.clone()),
                }
            }
        }
        let of = of.into_iter().enumerate().map(|(s, t)| t.unwrap_or_else(|| vec![s as u32]));
        Ok(Teams { of: of.collect() })
    }

    /// A seat's team, in seat order (`team(p)`).
    pub fn team(&self, seat: u32) -> &[u32] {
        &self.of[seat as usize]
    }

    /// The seats that win, given each seat's (score, tiebreak): every member of the teams whose
    /// best member is the best (`teams.winners`). Alone, the seats with the best key.
    pub fn winners(&self, keys: &[(i64, i64)]) -> Vec<u32> {
        let best_of = |seat: usize| self.of[seat].iter().map(|&s| keys[s as usize]).max();
        let Some(best) = (0..keys.len()).filter_map(best_of).max() else { return Vec::new() };
        (0..keys.len()).filter(|&s| best_of(s) == Some(best)).map(|s| s as u32).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_the_layout_does_not_name_plays_alone() {
        let teams = Teams::of_layout(&[vec![2, 0]], 4).unwrap();
        assert_eq!(teams.team(0), &[0, 2]);
        assert_eq!(teams.team(2), &[0, 2]);
        assert_eq!(teams.team(1), &[1]);
        assert_eq!(teams.team(3), &[3]);
    }

    #[test]
    fn a_layout_that_seats_a_seat_twice_or_a_seat_the_game_has_not_is_refused() {
        assert!(Teams::of_layout(&[vec![0, 1], vec![1]], 2).is_err());
        assert!(Teams::of_layout(&[vec![0, 2]], 2).is_err());
    }

    #[test]
    fn every_member_of_the_team_whose_best_member_is_best_wins() {
        let teams = Teams::of_layout(&[vec![0, 2], vec![1, 3]], 4).unwrap();
        assert_eq!(teams.winners(&[(5, 0), (9, 0), (1, 0), (2, 0)]), vec![1, 3]);
        assert_eq!(teams.winners(&[(9, 1), (9, 0), (1, 0), (2, 0)]), vec![0, 2]);
        assert_eq!(teams.winners(&[(9, 0), (1, 0), (1, 0), (9, 0)]), vec![0, 1, 2, 3]);
        assert_eq!(Teams::alone(3).winners(&[(1, 0), (3, 0), (3, 0)]), vec![1, 2]);
    }
}
