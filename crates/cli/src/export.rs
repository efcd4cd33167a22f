//! `rebalance-lab export`: the grid as SVG, the assignment as Markdown, the scenario as JSON
//! or as the `assign` command line.

use super::input::read_input;
use rebalance_lab_core::export;
use rebalance_lab_core::import::{self, Observed};
use rebalance_lab_core::scenario::Scenario;

/// What to export.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum Format {
    /// The grid: one cell per partition in its owner's colour, with a legend.
    Svg,
    /// The assignment as a Markdown table.
    Markdown,
    /// The scenario as JSON (the shape `import` prints).
    Json,
    /// The `rebalance-lab assign` command line that reproduces the scenario.
    Command,
}

/// Export a scenario or an imported group as SVG, Markdown, JSON or a command line.
#[derive(Debug, clap::Args)]
#[command(
    long_about = "Export a scenario file (JSON) or the output of kafka-consumer-groups.sh \
--describe: the grid as SVG, the assignment as a Markdown table, the scenario as JSON, or the \
rebalance-lab assign command line that reproduces it. An imported group shows its observed \
assignment; a scenario file the one its assignor computes (its owned partitions when this \
version does not run that assignor).",
    after_help = "\
Examples:
  rebalance-lab export examples/three-topics.json --format markdown
  rebalance-lab export g.txt --format svg --output-dir ."
)]
pub struct Args {
    /// A scenario file (JSON) or kafka-consumer-groups.sh output, or - for standard input.
    #[arg(value_name = "FILE")]
    file: String,
    /// What to export.
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "svg")]
    format: Format,
    /// Write the file into this directory (named after the group) and print its path.
    #[arg(long, value_name = "DIR")]
    output_dir: Option<String>,
}

pub fn run(a: Args) -> Result<String, String> {
    let text = read_input(&a.file)?;
    // (kafka-consumer-groups.sh output: the assignment as observed; a scenario: computed by
    // its assignor, or its owned partitions when no assignor answers)
    let (scenario, group, assignment, named, lag, computed_by): (
        Scenario,
        Option<String>,
        Observed,
        _,
        _,
        _,
    ) = if import::looks_like_consumer_groups(&text) {
        let i = super::import::read(&a.file, &text)?;
        (
            i.scenario,
            i.group_id,
            i.assignment,
            i.assignor,
            Some(i.lag),
            None,
        )
    } else {
        let s = Scenario::from_json(&text)?;
        if let Some(p) = s.problems().first() {
            return Err(p.to_string());
        }
        let computed = export::computed_assignment(&s);
        let computed_by = computed.is_some().then_some(s.assignor);
        let a = computed.unwrap_or_else(|| export::owned_assignment(&s));
        let named = Some(s.assignor);
        (s, None, a, named, None, computed_by)
    };
    let lag_shown = lag.as_ref().filter(|l| import::shows_lag(l));
    let about = export::About {
        group_id: group.as_deref(),
        computed_by,
        what_if: None,
        lag: lag_shown,
        colour_slots: None,
    };
    let (body, ext) = match a.format {
        Format::Svg => (export::svg::grid_svg(&scenario, &assignment, &about), "svg"),
        Format::Markdown => (
            export::markdown::assignment_markdown(&scenario, &assignment, &about),
            "md",
        ),
        Format::Json => (
            export::json::scenario_json(&scenario, group.as_deref(), named, lag.as_ref()),
            "json",
        ),
        Format::Command => (export::command::assign_command(&scenario), "sh"),
    };
    match a.output_dir {
        None => Ok(body.trim_end_matches('\n').to_string()),
        Some(dir) => {
            let path = std::path::Path::new(&dir).join(export::file_name(group.as_deref(), ext));
            std::fs::write(&path, body).map_err(|e| format!("{}: {e}", path.display()))?;
            Ok(path.display().to_string())
        }
    }
}
