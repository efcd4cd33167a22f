//! The `rebalance-lab assign` command line that reproduces a scenario's assignment.

use crate::scenario::Scenario;

/// Quotes a word for a POSIX shell: in single quotes, each `'` as `'\''`.
pub fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// `printf '%s\n' '<scenario JSON>' | rebalance-lab assign -`: the scenario, its assignor
/// included, travels in the line (no file needed), quoted for a POSIX shell.
pub fn assign_command(scenario: &Scenario) -> String {
    let json = serde_json::to_string(scenario).unwrap_or_default();
    format!(
        "printf '%s\\n' {} | rebalance-lab assign -",
        shell_quote(&json)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_survive_a_shell_round_trip() {
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(
            shell_quote("$(rm -rf /) `x` \"y\""),
            "'$(rm -rf /) `x` \"y\"'"
        );
    }
}
