//! Bilingual text. Every sentence the engine produces is written in both languages at once,
//! so narration and explanations never fall back to the other language.

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Lang {
    #[default]
    En,
    Zh,
}

impl Lang {
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    pub fn parse(code: &str) -> Option<Lang> {
        let lower = code.trim().to_ascii_lowercase();
        if lower == "en" || lower.starts_with("en-") {
            Some(Lang::En)
        } else if lower == "zh" || lower.starts_with("zh-") {
            Some(Lang::Zh)
        } else {
            None
        }
    }
}

/// One sentence in both languages, each a `format!` string over the same values:
/// `tx!("send {op} again", "再发 {op}")` captures `op`; arguments after the two strings
/// (`tx!("{} of {cap}", "{} / {cap}", used, cap = limit)`) are given to both. The values are
/// named once, so the two languages cannot drift apart in what they say.
#[macro_export]
macro_rules! tx {
    ($en:literal, $zh:literal $(,)?) => {
        $crate::sim::Text::new(::std::format!($en), ::std::format!($zh))
    };
    ($en:literal, $zh:literal, $($args:tt)+) => {
        $crate::sim::Text::new(::std::format!($en, $($args)+), ::std::format!($zh, $($args)+))
    };
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Text {
    pub en: String,
    pub zh: String,
}

impl Text {
    pub fn new(en: impl Into<String>, zh: impl Into<String>) -> Text {
        Text {
            en: en.into(),
            zh: zh.into(),
        }
    }

    /// The same string in both languages: ids, numbers, SQL.
    pub fn same(s: impl Into<String>) -> Text {
        let s = s.into();
        Text {
            en: s.clone(),
            zh: s,
        }
    }

    pub fn get(&self, lang: Lang) -> &str {
        match lang {
            Lang::En => &self.en,
            Lang::Zh => &self.zh,
        }
    }

    /// Joins two sentences; Chinese needs no space between them.
    pub fn then(mut self, other: &Text) -> Text {
        self.add(other);
        self
    }

    /// Appends a sentence in place ([`Text::then`]).
    pub fn add(&mut self, other: &Text) {
        if !self.en.is_empty() && !other.en.is_empty() {
            self.en.push(' ');
        }
        self.en.push_str(&other.en);
        self.zh.push_str(&other.zh);
    }
}

/// An id, a number or a statement: the same in both languages.
impl From<String> for Text {
    fn from(s: String) -> Text {
        Text::same(s)
    }
}

impl From<&String> for Text {
    fn from(s: &String) -> Text {
        Text::same(s.as_str())
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Text {
        Text::same(s)
    }
}

/// "1 refund", "2 refunds": a count with its noun in English (Chinese has no plural).
pub fn counted(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A whole number with thousands separators (9,600), as both languages write them here.
pub fn grouped(n: u32) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lang_parses_codes_and_browser_tags() {
        assert_eq!(Lang::parse("zh-CN"), Some(Lang::Zh));
        assert_eq!(Lang::parse("EN"), Some(Lang::En));
        assert_eq!(Lang::parse("fr"), None);
        assert_eq!(Lang::parse(""), None);
    }

    #[test]
    fn then_joins_with_a_space_only_in_english() {
        let t = Text::new("A.", "甲。").then(&Text::new("B.", "乙。"));
        assert_eq!(t.en, "A. B.");
        assert_eq!(t.zh, "甲。乙。");
    }

    #[test]
    fn tx_gives_both_languages_the_same_values() {
        let op = "op-1";
        assert_eq!(
            crate::tx!("send {op}", "发 {op}"),
            Text::new("send op-1", "发 op-1")
        );
        let t = crate::tx!("{} of {cap}", "{} / {cap}", 3, cap = 5 + 1);
        assert_eq!(t, Text::new("3 of 6", "3 / 6"));
    }
}
