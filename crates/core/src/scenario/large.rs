//! A large group's assignments, computed away from the page's main thread (a Web Worker:
//! src/worker.rs, web/worker.js). The job is the scenario's link, the answer one list
//! of `u32` ([`crate::assignor::transfer`]): range and round-robin under the leader's
//! client, each the same as the page would compute (the group panel's comparison with the
//! other leader client is computed in the page once the answer is in).

use super::link;
use super::Scenario;
use crate::assignor::{self, transfer, Assignment, AssignorKind};
use std::rc::Rc;

/// Above this many members times partitions the page computes a group's assignments in its
/// worker (when it has one): the sticky assignors' bound, above which only range and
/// round-robin run in the page.
pub const WORKER_ABOVE: u64 = 10_000_000;

/// Whether the page computes `s`'s assignments in its worker.
pub fn large(s: &Scenario) -> bool {
    s.members.len() as u64 * s.total_partitions() > WORKER_ABOVE
        && matches!(s.assignor, AssignorKind::Range | AssignorKind::RoundRobin)
}

/// The job for `s`: its link.
pub fn job(s: &Scenario) -> String {
    link::scenario_fragment(s)
}

/// What a large group's worker computed (shared, not copied, by the page's computations of
/// the same scenario).
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    /// Range under the leader's client.
    pub range: Rc<Assignment>,
    /// Round-robin under the leader's client.
    pub round_robin: Rc<Assignment>,
}

/// Runs a job (in the worker): the answer for the scenario the link holds, or an empty list
/// when the link cannot be read or the scenario's assignor is not range or round-robin.
pub fn run(job: &str) -> Vec<u32> {
    let Ok(st) = link::from_fragment(job) else {
        return Vec::new();
    };
    let s = &st.scenario;
    if !matches!(s.assignor, AssignorKind::Range | AssignorKind::RoundRobin) {
        return Vec::new();
    }
    let input = s.group_input();
    let mut out = Vec::new();
    for a in [
        assignor::range_with(&input, s.leader_client),
        assignor::round_robin_with(&input, s.leader_client),
    ] {
        let Some(words) = transfer::encode(&a) else {
            return Vec::new();
        };
        transfer::list(&mut out, &words);
    }
    out
}

/// The answer [`run`] gave, or `None` when it is not one (the job failed).
pub fn answer(words: &[u32]) -> Option<Answer> {
    // (each as `run` wrote it: a length, then that many words)
    let mut w = transfer::Words(words);
    let mut next = || transfer::decode(w.list()?).map(Rc::new);
    let (range, round_robin) = (next()?, next()?);
    w.0.is_empty().then_some(Answer { range, round_robin })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assignor::LeaderClient;
    use crate::scenario::{Member, Topic};

    fn scenario(members: usize, assignor: AssignorKind, client: LeaderClient) -> Scenario {
        let topics: Vec<Topic> = (0..4)
            .map(|i| Topic {
                name: format!("t{i}"),
                partitions: 5 + i,
            })
            .collect();
        let names = ["t0", "t1", "t2", "t3", "gone"];
        Scenario {
            members: (0..members)
                .map(|i| Member::new(&format!("consumer-{i}"), &names[i % 3..]))
                .collect(),
            topics,
            assignor,
            leader_client: client,
            ..Default::default()
        }
    }

    #[test]
    fn the_worker_answers_what_the_page_computes() {
        for assignor in [AssignorKind::Range, AssignorKind::RoundRobin] {
            for client in [LeaderClient::Java, LeaderClient::Librdkafka] {
                let s = scenario(12, assignor, client);
                let got = answer(&run(&job(&s))).expect("an answer");
                let input = s.group_input();
                assert_eq!(*got.range, assignor::range_with(&input, client));
                assert_eq!(*got.round_robin, assignor::round_robin_with(&input, client));
            }
        }
    }

    #[test]
    fn the_job_is_the_scenario_s_own_link() {
        let s = scenario(7, AssignorKind::RoundRobin, LeaderClient::Librdkafka);
        let whole = link::to_fragment(&link::LinkState {
            scenario: s.clone(),
            ..Default::default()
        });
        assert_eq!(job(&s), whole);
        assert_eq!(link::from_fragment(&job(&s)).unwrap().scenario, s);
    }

    #[test]
    fn a_broken_job_gives_no_answer() {
        assert_eq!(run("v1;t=orders*"), Vec::<u32>::new());
        assert_eq!(answer(&run("v1;t=orders*")), None);
        let sticky = scenario(3, AssignorKind::Sticky, LeaderClient::Java);
        assert_eq!(answer(&run(&job(&sticky))), None);
        let words = run(&job(&scenario(5, AssignorKind::Range, LeaderClient::Java)));
        assert_eq!(answer(&words[..words.len() - 1]), None);
    }

    #[test]
    fn only_large_range_and_round_robin_groups_go_to_the_worker() {
        let mut s = scenario(3, AssignorKind::Range, LeaderClient::Java);
        assert!(!large(&s));
        s.topics[0].partitions = 5_000_000;
        assert!(large(&s));
        s.assignor = AssignorKind::Sticky;
        assert!(!large(&s));
    }
}
