//! Text helpers: colours read from messages (both modules) and numbers written into them (the engine's).

use homeostat_chess::Color;

/// `w`/`white` or `b`/`black`, any case.
pub fn parse_color(text: &str) -> Result<Color, String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "w" | "white" => Ok(Color::White),
        "b" | "black" => Ok(Color::Black),
        _ => Err(format!("not a colour: '{text}' (expected 'w' or 'b')")),
    }
}

/// A number for an error message, as JavaScript would print the common cases (integers, and
/// fractions to three places), without pulling in Rust's float formatting. (The rules module asks
/// JavaScript itself.)
#[cfg(feature = "engine")]
pub fn number_text(v: f64) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    let sign = if v < 0.0 { "-" } else { "" };
    let thousandths = (v.abs() * 1000.0).round();
    if v.abs() >= 1.0e21 {
        // JavaScript's notation for large numbers, such as 1.5e+21.
        let exponent = v.abs().log10().floor() as i32;
        return format!("{sign}{}e+{exponent}", number_text(v.abs() / 10f64.powi(exponent)));
    }
    let thousandths = thousandths as u64;
    let (whole, fraction) = (thousandths / 1000, thousandths % 1000);
    if fraction == 0 {
        return format!("{sign}{whole}");
    }
    let digits = format!("{fraction:03}");
    format!("{sign}{whole}.{}", digits.trim_end_matches('0'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_are_read_in_either_spelling() {
        assert_eq!(parse_color(" White"), Ok(Color::White));
        assert_eq!(parse_color("b"), Ok(Color::Black));
        assert!(parse_color("x").unwrap_err().contains("not a colour"));
    }

    #[test]
    #[cfg(feature = "engine")]
    fn numbers_in_messages_read_as_in_javascript() {
        let cases = [
            (3.0, "3"),
            (-1.0, "-1"),
            (2.5, "2.5"),
            (0.125, "0.125"),
            (1.5e21, "1.5e+21"),
            (1e300, "1e+300"),
            (-0.0, "0"),
        ];
        for (v, text) in cases {
            assert_eq!(number_text(v), text);
        }
        assert_eq!((number_text(f64::NAN), number_text(f64::NEG_INFINITY)), ("NaN".into(), "-Infinity".into()));
    }
}
