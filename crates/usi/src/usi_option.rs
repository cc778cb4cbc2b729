//! One USI option as the engine declares it: its type with default and range, the value a
//! `setoption` text reads as, and its `option` line. The engine's table of them is
//! [`crate::options::OPTIONS`].

use crate::options::Options;
use gogo_protocol::{EngineMessage, OptionKind};

/// An option's type, default and range.
#[derive(Clone, Copy, Debug)]
pub enum OptionType {
    /// A whole number.
    Spin {
        /// Default.
        default: i64,
        /// Least.
        min: i64,
        /// Most.
        max: i64,
    },
    /// `true` or `false`.
    Check(bool),
    /// One of `vars`.
    Combo {
        /// Default.
        default: &'static str,
        /// The choices.
        vars: &'static [&'static str],
    },
    /// A file name.
    Filename(&'static str),
    /// An action, with no value.
    Button,
}

/// An option's value, parsed by its type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum OptionValue<'a> {
    /// A [`OptionType::Spin`]'s.
    Number(i64),
    /// A [`OptionType::Check`]'s.
    Flag(bool),
    /// A [`OptionType::Combo`]'s or [`OptionType::Filename`]'s.
    Text(&'a str),
    /// A [`OptionType::Button`] was pressed.
    Press,
}

/// One option.
pub struct UsiOption {
    /// The name the `usi` answer gives.
    pub name: &'static str,
    /// Other names `setoption` accepts (any case).
    pub aliases: &'static [&'static str],
    /// Type, default and range.
    pub kind: OptionType,
    /// What it means (the README's table).
    pub meaning: &'static str,
    /// Whether the `usi` answer lists it (variant names GUIs send are accepted, not offered).
    pub listed: bool,
    /// Sets it in the engine's options, from a value its type read.
    pub(crate) set: fn(&mut Options, OptionValue) -> Result<(), String>,
}

/// A spin option's value (0 for another kind).
pub(crate) fn number(value: OptionValue) -> i64 {
    match value {
        OptionValue::Number(n) => n,
        _ => 0,
    }
}

/// A check option's value.
pub(crate) fn flag(value: OptionValue) -> bool {
    matches!(value, OptionValue::Flag(true))
}

/// A string or combo option's text (empty for another kind).
pub(crate) fn text(value: OptionValue<'_>) -> &str {
    match value {
        OptionValue::Text(t) => t,
        _ => "",
    }
}

fn parse_bool(value: &str) -> Option<bool> {
    match value.to_ascii_lowercase().as_str() {
        // USI says true/false; UCI2WB passes XBoard's 1/0 through.
        "true" | "1" => Some(true),
        "false" | "0" => Some(false),
        _ => None,
    }
}

impl UsiOption {
    /// Whether `name` names this option (any case).
    pub(crate) fn is_named(&self, name: &str) -> bool {
        self.name.eq_ignore_ascii_case(name)
            || self.aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
    }

    /// `text` read as this option's value.
    pub(crate) fn parse<'a>(&self, text: &'a str) -> Result<OptionValue<'a>, String> {
        let name = self.name;
        match self.kind {
            OptionType::Spin { min, max, .. } => match text.parse::<i64>() {
                Ok(n) if (min..=max).contains(&n) => Ok(OptionValue::Number(n)),
                _ => Err(format!(
                    "{name} must be a whole number from {min} to {max}, not '{text}'"
                )),
            },
            OptionType::Check(_) => parse_bool(text)
                .map(OptionValue::Flag)
                .ok_or_else(|| format!("{name} must be true or false, not '{text}'")),
            OptionType::Combo { vars, .. } => {
                match vars.iter().find(|v| v.eq_ignore_ascii_case(text)) {
                    Some(v) => Ok(OptionValue::Text(v)),
                    None => Err(format!(
                        "{name} must be one of {}, not '{text}'",
                        vars.join(", ")
                    )),
                }
            }
            OptionType::Filename(_) => Ok(OptionValue::Text(text)),
            OptionType::Button => Ok(OptionValue::Press),
        }
    }

    /// The `option` line of the `usi` answer.
    pub fn message(&self) -> EngineMessage {
        let kind = match self.kind {
            OptionType::Spin { default, min, max } => OptionKind::Spin { default, min, max },
            OptionType::Check(default) => OptionKind::Check(default),
            OptionType::Combo { default, vars } => OptionKind::Combo {
                default: default.into(),
                vars: vars.iter().map(|v| v.to_string()).collect(),
            },
            OptionType::Filename(default) => OptionKind::Filename(default.into()),
            OptionType::Button => OptionKind::Button,
        };
        EngineMessage::Option {
            name: self.name.into(),
            kind,
        }
    }

    /// The default as the README shows it.
    pub(crate) fn default_text(&self) -> String {
        match self.kind {
            OptionType::Spin { default, .. } => default.to_string(),
            OptionType::Check(default) => default.to_string(),
            OptionType::Combo { default, .. } => default.to_string(),
            OptionType::Filename(default) => format!("`{default}`"),
            OptionType::Button => String::new(),
        }
    }
}
