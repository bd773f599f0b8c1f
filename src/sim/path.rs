//! Paths: the sequence of choices (indices into each step's enabled actions) as a compact
//! URL-safe string, one character per step.

use super::Text;

const ALPHABET: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";

/// The most actions a state may enable: one path character can name this many.
pub const MAX_CHOICES: usize = ALPHABET.len();

/// Where a path string stopped being usable, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathError {
    /// The number of choices that were valid before the problem (the step it stopped at).
    pub at: usize,
    pub reason: Text,
}

pub fn encode_path(path: &[u8]) -> String {
    path.iter()
        .map(|&c| {
            assert!((c as usize) < MAX_CHOICES, "choice index {c} out of range");
            ALPHABET[c as usize] as char
        })
        .collect()
}

/// Decodes as far as the string is valid. The error, if any, says where decoding stopped.
pub fn decode_path(s: &str) -> (Vec<u8>, Option<PathError>) {
    let mut path = Vec::with_capacity(s.len());
    for (i, ch) in s.chars().enumerate() {
        let lower = ch.to_ascii_lowercase();
        match ALPHABET.iter().position(|&a| a as char == lower) {
            Some(index) => path.push(index as u8),
            None => {
                let shown: String = ch.escape_default().collect();
                let reason = Text::new(
                    format!("character '{shown}' at position {} is not a step", i + 1),
                    format!("第 {} 个字符 '{shown}' 不是有效的步骤", i + 1),
                );
                return (path, Some(PathError { at: i, reason }));
            }
        }
    }
    (path, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_path_round_trips() {
        let path: Vec<u8> = (0..MAX_CHOICES as u8).chain([0, 3, 35, 1]).collect();
        let s = encode_path(&path);
        assert_eq!(s.len(), path.len());
        assert_eq!(decode_path(&s), (path, None));
    }

    #[test]
    fn decoding_stops_at_the_first_bad_character() {
        let (path, err) = decode_path("01ä2");
        assert_eq!(path, vec![0, 1]);
        let err = err.expect("an error");
        assert_eq!(err.at, 2);
        assert!(err.reason.en.contains("position 3"), "{}", err.reason.en);
    }

    #[test]
    fn uppercase_is_accepted_and_empty_is_empty() {
        assert_eq!(decode_path("AB").0, vec![10, 11]);
        assert_eq!(decode_path(""), (vec![], None));
    }
}
