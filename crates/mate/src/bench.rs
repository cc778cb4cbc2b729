//! `gogo mate --bench`: the problems of `tests/data/tsume.tsv`, solved one after another.

/// The data set's text (see its header for how it was made).
pub const PROBLEMS: &str = include_str!("../../../tests/data/tsume.tsv");

/// The bench problems: `(sfen, mate length in plies, or None for no mate)`.
pub fn problems() -> Vec<(String, Option<u32>)> {
    PROBLEMS
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let mut fields = l.split('\t');
            let sfen = fields.next()?.to_string();
            let length = match fields.next()? {
                "nomate" => None,
                n => Some(n.parse().ok()?),
            };
            Some((sfen, length))
        })
        .collect()
}
