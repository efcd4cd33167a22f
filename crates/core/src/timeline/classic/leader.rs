//! The leader's side: the assignment it computes over the members its JoinGroup response
//! lists.

use super::*;

impl<'a> Sim<'a> {
    // ------------------------------------------------------------------ the leader

    /// The leader's assignment, with the protocol the coordinator selected (the leader is
    /// `leader`), over the members its JoinGroup response lists: each member's assignment
    /// bytes, by member id. What each member owned is what its subscription says: its owned
    /// partitions when it rebalances cooperatively, none when eagerly (it revoked them
    /// before joining); under sticky, what its StickyAssignor's user data remembers.
    pub(super) fn assign(
        &mut self,
        leader: usize,
        members: &[(String, Option<String>, Vec<u8>)],
    ) -> Vec<(String, Vec<u8>)> {
        self.assignments += 1;
        let selected = self.clients[leader].group_protocol.clone();
        let kind = AssignorKind::of_protocol(&selected).unwrap_or(AssignorKind::Range);
        let topics = self.group.topic_metas();
        let metas: Vec<MemberMeta> = members
            .iter()
            .map(|(id, instance, _)| {
                let c = self.member_client.get(id).copied();
                let (topics, owned, generation) = match c {
                    Some(c) => {
                        let cl = &self.clients[c];
                        let (owned, generation) = match (&cl.sticky_memory, kind) {
                            (Some((memory, generation)), AssignorKind::Sticky) => {
                                (self.by_topic(memory), *generation)
                            }
                            (None, AssignorKind::Sticky) => (Vec::new(), -1),
                            _ => {
                                let (owned, generation) = &cl.joined_with;
                                let owned = if cl.eager {
                                    Vec::new()
                                } else {
                                    self.by_topic(owned)
                                };
                                (owned, *generation)
                            }
                        };
                        (
                            cl.topics.clone(),
                            owned,
                            (generation != -1).then_some(generation),
                        )
                    }
                    None => (std::rc::Rc::new(Vec::new()), Vec::new(), None),
                };
                MemberMeta {
                    id: id.clone(),
                    instance_id: instance.clone(),
                    rack: None,
                    topics,
                    owned,
                    generation,
                }
            })
            .collect();
        let input = GroupInput {
            topics,
            members: metas,
            topic_ids: Vec::new(),
        };
        let result = match assignor::try_assign(kind, &input) {
            Ok(a) => Some(a),
            Err(e) => {
                // Java's leader would throw and the rebalance fail; the run goes on with range
                let note = format!(
                    "At {} s the leader's {} throws ({e}); that rebalance uses range instead.",
                    secs(self.now),
                    kind.name()
                );
                self.notes.push(note);
                assignor::assign(assignor::AssignorKind::Range, &input)
            }
        };
        let mut per_member: Vec<Vec<usize>> = vec![Vec::new(); members.len()];
        if let Some(a) = result {
            // each member's share counted first, so each list is allocated once
            let mut counts = vec![0; members.len()];
            for &owner in a.topics.iter().flat_map(|t| &t.owners) {
                if owner != UNASSIGNED {
                    counts[owner as usize] += 1;
                }
            }
            for (ps, n) in per_member.iter_mut().zip(counts) {
                ps.reserve_exact(n);
            }
            for t in &a.topics {
                let Some(ti) = self.group.topics.iter().position(|(n, _)| *n == t.topic) else {
                    continue;
                };
                let base = self.topic_base[ti];
                for (p, owner) in t.owners.iter().enumerate() {
                    if *owner != UNASSIGNED {
                        per_member[*owner as usize].push(base + p);
                    }
                }
            }
        }
        members
            .iter()
            .zip(per_member)
            .map(|((id, _, _), mut ps)| {
                ps.sort_unstable();
                (id.clone(), encode_partitions(&ps))
            })
            .collect()
    }
}
