//! Column names in messages and lookups: matching a name exactly or in any case, the closest
//! name for a "did you mean", and short lists of names.

/// The name among `names` closest to `want` by edit distance, ignoring case, when it is close
/// (at most a third of the longer name's letters differ): the "did you mean" of messages.
pub fn closest_name<'a>(want: &str, names: &'a [String]) -> Option<&'a str> {
    let want = want.trim().to_lowercase();
    names
        .iter()
        .map(|n| {
            (
                strsim::damerau_levenshtein(&want, &n.trim().to_lowercase()),
                n,
            )
        })
        .filter(|(d, n)| *d > 0 && *d * 3 <= want.chars().count().max(n.chars().count()))
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| n.as_str())
}

/// The column of `names` that `want` names: exactly after trimming, or else ignoring case when
/// that finds one column.
pub fn column_by_name(want: &str, names: &[String]) -> Option<usize> {
    let want = want.trim();
    let exact: Vec<usize> = (0..names.len())
        .filter(|&k| names[k].trim() == want)
        .collect();
    if exact.len() == 1 {
        return Some(exact[0]);
    }
    let loose: Vec<usize> = (0..names.len())
        .filter(|&k| names[k].trim().eq_ignore_ascii_case(want))
        .collect();
    (loose.len() == 1).then(|| loose[0])
}

/// `{a, b, c}`, or the first `most` and a count of the rest.
pub(crate) fn list(items: &[&str], most: usize) -> String {
    if items.len() <= most {
        format!("{{{}}}", items.join(", "))
    } else {
        format!(
            "{{{}, ... and {} more}}",
            items[..most].join(", "),
            items.len() - most
        )
    }
}

/// `{"a", "b"}` for messages, at most 30 names.
pub(crate) fn names_list(names: &[String]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
    let refs: Vec<&str> = quoted.iter().map(String::as_str).collect();
    list(&refs, 30)
}
