//! A timeline as a person sets it up (the story and the settings), and its text in a link:
//! the story's name, then each setting that is not Kafka's default as `key=value`, joined
//! by dots: `rolling-restart.static=1.session=10000`.

use super::{CommitPolicy, Protocol, Settings, Story, StoryKind};

/// The story and the settings of a timeline.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Spec {
    /// The story.
    pub story: Story,
    /// The settings.
    pub settings: Settings,
}

// Its numbers are finite (the reader refuses the rest), so equality is an equivalence.
impl Eq for Spec {}

/// A preset: a common story with the settings it is told with.
#[derive(Debug, Clone, Copy)]
pub struct Preset {
    /// Its key (the page's buttons, the tests).
    pub key: &'static str,
    /// How a person would say it.
    pub label: &'static str,
    /// What it shows.
    pub about: &'static str,
}

/// The presets, in the order a person meets them.
pub const PRESETS: [Preset; 6] = [
    Preset {
        key: "rolling-dynamic",
        label: "Rolling restart, dynamic members",
        about: "Each member closes, is down 20 s and comes back; every close and every return is a rebalance.",
    },
    Preset {
        key: "rolling-static",
        label: "Rolling restart, static members",
        about: "The same deploy with group.instance.id: back within session.timeout.ms, no rebalance at all.",
    },
    Preset {
        key: "streams-replaced",
        label: "A Kafka Streams instance replaced",
        about: "Streams closes without LeaveGroup: the new instance's join waits for the old one's session to time out. Streams commits every commit.interval.ms (30 s).",
    },
    Preset {
        key: "crash",
        label: "A member crashes",
        about: "No commit, no LeaveGroup: its partitions wait for session.timeout.ms and what it processed since its last commit is read again.",
    },
    Preset {
        key: "scale-out",
        label: "Scale out by one",
        about: "A member joins: eager stops everyone briefly, cooperative only what moves, in two rebalances.",
    },
    Preset {
        key: "to-cooperative",
        label: "Move to cooperative-sticky",
        about: "A rolling restart to cooperative-sticky alone (a first one adds it where a member's list lacks it): the vote moves to it with the first member back, and the members still listing another assignor revoke everything at each rebalance until the last is back.",
    },
];

/// The spec of a preset.
pub fn preset(key: &str) -> Option<Spec> {
    let mut spec = Spec::default();
    match key {
        "rolling-dynamic" => {}
        "rolling-static" => spec.settings.client.static_membership = true,
        "streams-replaced" => {
            spec.settings.protocol = Protocol::Cooperative;
            spec.settings.client.leave_on_close = false;
            // Streams commits every commit.interval.ms (30 s) itself, and polls 1,000
            // records at a time
            spec.settings.client.commit = CommitPolicy::Auto {
                interval_ms: 30_000,
            };
            spec.settings.client.max_poll_records = 1_000;
            spec.story = Story::new(StoryKind::Replace);
        }
        "crash" => spec.story = Story::new(StoryKind::Crash),
        "scale-out" => spec.story = Story::new(StoryKind::ScaleOut),
        "to-cooperative" => spec.story = Story::new(StoryKind::ToCooperative),
        _ => return None,
    }
    Some(spec)
}

/// Why a spec's text could not be read: where (a byte offset into it) and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecError {
    /// Byte offset into the text.
    pub position: usize,
    /// What is wrong.
    pub message: String,
}

/// The key of a script written by hand: the last, running to the end of the text.
const SCRIPT_KEY: &str = "script";

/// The settings a link can carry, by key: (key, Kafka's name or a description).
const KEYS: &[(&str, &str)] = &[
    (
        "protocol",
        "the protocol (eager, cooperative, consumer or listed)",
    ),
    ("static", "static membership (1 or 0)"),
    ("leave", "LeaveGroup on close (1 or 0)"),
    ("session", "session.timeout.ms"),
    ("heartbeat", "heartbeat.interval.ms"),
    ("maxpoll", "max.poll.interval.ms"),
    (
        "commit",
        "the commit policy (auto, after-batch or before-processing)",
    ),
    ("autocommit", "auto.commit.interval.ms"),
    ("records", "max.poll.records"),
    ("processing", "processing milliseconds per record"),
    ("delay", "group.initial.rebalance.delay.ms"),
    ("cheartbeat", "group.consumer.heartbeat.interval.ms"),
    ("csession", "group.consumer.session.timeout.ms"),
    ("rate", "records per second per partition"),
    ("rtt", "the round trip in milliseconds"),
    ("down", "the downtime in milliseconds"),
    ("gap", "the gap in milliseconds"),
    ("count", "how many members"),
];

impl Spec {
    /// The text a link carries.
    pub fn write(&self) -> String {
        let d = Spec::default();
        let (s, c, dc) = (&self.settings, &self.settings.client, &d.settings.client);
        let mut out = vec![self.story.kind.name().to_string()];
        let mut put = |k: &str, v: String| out.push(format!("{k}={v}"));
        if s.protocol != d.settings.protocol {
            put("protocol", s.protocol.name().into());
        }
        if c.static_membership {
            put("static", "1".into());
        }
        if !c.leave_on_close {
            put("leave", "0".into());
        }
        let ints = [
            ("session", c.session_timeout_ms, dc.session_timeout_ms),
            (
                "heartbeat",
                c.heartbeat_interval_ms,
                dc.heartbeat_interval_ms,
            ),
            ("maxpoll", c.max_poll_interval_ms, dc.max_poll_interval_ms),
            (
                "records",
                i64::from(c.max_poll_records),
                i64::from(dc.max_poll_records),
            ),
            (
                "delay",
                s.broker.initial_rebalance_delay_ms,
                d.settings.broker.initial_rebalance_delay_ms,
            ),
            (
                "cheartbeat",
                s.consumer_group.heartbeat_interval_ms,
                d.settings.consumer_group.heartbeat_interval_ms,
            ),
            (
                "csession",
                s.consumer_group.session_timeout_ms,
                d.settings.consumer_group.session_timeout_ms,
            ),
            ("rtt", s.round_trip_ms, d.settings.round_trip_ms),
        ];
        for (k, v, default) in ints {
            if v != default {
                put(k, v.to_string());
            }
        }
        match c.commit {
            CommitPolicy::Auto { interval_ms } => {
                if interval_ms != 5_000 {
                    put("autocommit", interval_ms.to_string());
                }
            }
            other => put("commit", other.name().into()),
        }
        if c.processing_ms_per_record != dc.processing_ms_per_record {
            put("processing", format!("{}", c.processing_ms_per_record));
        }
        if s.records_per_second != d.settings.records_per_second {
            put("rate", format!("{}", s.records_per_second));
        }
        let ds = Story::new(self.story.kind);
        if self.story.downtime_ms != ds.downtime_ms {
            put("down", self.story.downtime_ms.to_string());
        }
        if self.story.gap_ms != ds.gap_ms {
            put("gap", self.story.gap_ms.to_string());
        }
        if self.story.count != ds.count {
            put("count", self.story.count.to_string());
        }
        if self.story.kind == StoryKind::Script {
            // last, and to the end of the text: a script holds dots of its own
            put(SCRIPT_KEY, self.story.script.clone());
        }
        out.join(".")
    }

    /// Reads [`Spec::write`]'s text; an error says where and what.
    pub fn parse(text: &str) -> Result<Spec, SpecError> {
        // a script runs to the end of the text
        let marker = format!(".{SCRIPT_KEY}=");
        let (text, script) = match text.find(&marker) {
            Some(i) => (&text[..i], Some(&text[i + marker.len()..])),
            None => (text, None),
        };
        let mut spec = Spec::parse_settings(text)?;
        match (script, spec.story.kind) {
            (Some(script), StoryKind::Script) => spec.story.script = script.to_string(),
            (Some(_), _) => {
                return Err(SpecError {
                    position: text.len() + 1,
                    message: format!(
                        "a script goes with the story \"{}\" only",
                        StoryKind::Script.name()
                    ),
                })
            }
            (None, _) => {}
        }
        Ok(spec)
    }

    /// [`Spec::parse`] of the text before the script.
    fn parse_settings(text: &str) -> Result<Spec, SpecError> {
        let mut parts = Vec::new();
        let mut at = 0;
        for part in text.split('.') {
            parts.push((at, part));
            at += part.len() + 1;
        }
        // a decimal number holds a dot: it belongs to the value before it
        let mut merged: Vec<(usize, String)> = Vec::new();
        for (at, part) in parts {
            let after_a_value = merged.len() > 1 && !part.contains('=');
            match merged.last_mut() {
                Some((_, last)) if after_a_value => {
                    last.push('.');
                    last.push_str(part);
                }
                _ => merged.push((at, part.to_string())),
            }
        }
        let Some((_, kind)) = merged.first() else {
            return Err(SpecError {
                position: 0,
                message: "the timeline names no story".into(),
            });
        };
        let kind = StoryKind::parse(kind).ok_or_else(|| SpecError {
            position: 0,
            message: format!(
                "\"{}\" is not a story ({})",
                short(kind),
                StoryKind::ALL.map(StoryKind::name).join(", ")
            ),
        })?;
        let mut spec = Spec {
            story: Story::new(kind),
            ..Spec::default()
        };
        for (at, part) in merged.iter().skip(1) {
            let Some((k, v)) = part.split_once('=') else {
                return Err(SpecError {
                    position: *at,
                    message: format!("\"{}\": expected key=value", short(part)),
                });
            };
            let at_v = at + k.len() + 1;
            let what = KEYS
                .iter()
                .find(|(key, _)| *key == k)
                .map(|(_, w)| *w)
                .ok_or_else(|| SpecError {
                    position: *at,
                    message: format!(
                        "\"{}\" is not a timeline setting ({})",
                        short(k),
                        KEYS.iter().map(|(k, _)| *k).collect::<Vec<_>>().join(", ")
                    ),
                })?;
            let bad = |m: String| SpecError {
                position: at_v,
                message: format!("{what}: {m}"),
            };
            let int = || -> Result<i64, SpecError> {
                v.parse::<i64>()
                    .ok()
                    .filter(|n| (0..=86_400_000).contains(n))
                    .ok_or_else(|| {
                        bad(format!(
                            "\"{}\" is not a whole number from 0 to 86,400,000",
                            short(v)
                        ))
                    })
            };
            let flag = || -> Result<bool, SpecError> {
                match v {
                    "1" => Ok(true),
                    "0" => Ok(false),
                    _ => Err(bad(format!("\"{}\" is not 1 or 0", short(v)))),
                }
            };
            let float = || -> Result<f64, SpecError> {
                v.parse::<f64>()
                    .ok()
                    .filter(|n| n.is_finite() && *n >= 0.0 && *n <= 10_000_000.0)
                    .ok_or_else(|| {
                        bad(format!(
                            "\"{}\" is not a number from 0 to 10,000,000",
                            short(v)
                        ))
                    })
            };
            let s = &mut spec.settings;
            match k {
                "protocol" => {
                    s.protocol = Protocol::parse(v).ok_or_else(|| {
                        bad(format!(
                            "\"{}\" is not eager, cooperative, consumer or listed",
                            short(v)
                        ))
                    })?
                }
                "static" => s.client.static_membership = flag()?,
                "leave" => s.client.leave_on_close = flag()?,
                "session" => s.client.session_timeout_ms = int()?,
                "heartbeat" => s.client.heartbeat_interval_ms = int()?,
                "maxpoll" => s.client.max_poll_interval_ms = int()?,
                "commit" => {
                    s.client.commit = CommitPolicy::parse(v).ok_or_else(|| {
                        bad(format!(
                            "\"{}\" is not auto, after-batch or before-processing",
                            short(v)
                        ))
                    })?
                }
                "autocommit" => {
                    s.client.commit = CommitPolicy::Auto {
                        interval_ms: int()?,
                    }
                }
                "records" => s.client.max_poll_records = int()? as u32,
                "processing" => s.client.processing_ms_per_record = float()?,
                "delay" => s.broker.initial_rebalance_delay_ms = int()?,
                "cheartbeat" => s.consumer_group.heartbeat_interval_ms = int()?,
                "csession" => s.consumer_group.session_timeout_ms = int()?,
                "rate" => s.records_per_second = float()?,
                "rtt" => s.round_trip_ms = int()?,
                "down" => spec.story.downtime_ms = int()?,
                "gap" => spec.story.gap_ms = int()?,
                _ => spec.story.count = int()?.min(u32::MAX as i64) as u32,
            }
        }
        Ok(spec)
    }
}

/// `s` cut to 40 characters, for a message.
pub(crate) fn short(s: &str) -> String {
    let mut out: String = s.chars().take(40).collect();
    if s.chars().count() > 40 {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_writes_and_reads_back() {
        for p in PRESETS {
            let spec = preset(p.key).unwrap();
            assert_eq!(Spec::parse(&spec.write()), Ok(spec), "{}", p.key);
        }
        assert_eq!(Spec::default().write(), "rolling-restart");
    }

    #[test]
    fn decimals_and_every_setting_round_trip() {
        let mut spec = Spec::default();
        spec.settings.client.processing_ms_per_record = 2.5;
        spec.settings.records_per_second = 12.75;
        spec.settings.client.commit = CommitPolicy::Auto { interval_ms: 1000 };
        spec.settings.protocol = Protocol::Consumer;
        spec.story.count = 3;
        let text = spec.write();
        assert_eq!(
            text,
            "rolling-restart.protocol=consumer.autocommit=1000.processing=2.5.rate=12.75.count=3"
        );
        assert_eq!(Spec::parse(&text), Ok(spec.clone()));
        for protocol in [
            Protocol::Eager,
            Protocol::Cooperative,
            Protocol::Consumer,
            Protocol::Listed,
        ] {
            spec.settings.protocol = protocol;
            assert_eq!(Spec::parse(&spec.write()), Ok(spec.clone()), "{protocol:?}");
        }
    }

    #[test]
    fn a_script_runs_to_the_end_of_the_text() {
        let mut spec = Spec {
            story: Story::new(StoryKind::Script),
            ..Spec::default()
        };
        spec.story.script = "0 restart a.b for 1.5s; 3s crash c=d\n4s join 1".into();
        spec.settings.client.static_membership = true;
        let text = spec.write();
        assert!(
            text.starts_with("script.static=1.script=0 restart a.b"),
            "{text}"
        );
        assert_eq!(Spec::parse(&text), Ok(spec));
        let e = Spec::parse("crash.script=0 crash a").unwrap_err();
        assert_eq!(e.position, 6);
        assert!(e.message.contains("\"script\" only"), "{e:?}");
    }

    #[test]
    fn bad_text_says_where_and_what() {
        let e = Spec::parse("crash.session=abc").unwrap_err();
        assert_eq!(e.position, 14);
        assert!(e.message.contains("session.timeout.ms"), "{e:?}");
        let e = Spec::parse("juggling").unwrap_err();
        assert!(e.message.contains("not a story"), "{e:?}");
        let e = Spec::parse("crash.colour=1").unwrap_err();
        assert_eq!(e.position, 6);
        let e = Spec::parse("crash.session=99999999999999999999").unwrap_err();
        assert!(e.message.contains("whole number"), "{e:?}");
        assert!(Spec::parse("").is_err());
        let e = Spec::parse("crash.protocol=sticky").unwrap_err();
        assert!(
            e.message.contains("eager, cooperative, consumer or listed"),
            "{e:?}"
        );
    }
}
