//! A `java.util.HashMap` bucket once it is a red-black tree (`HashMap.TreeNode`): what
//! decides the bucket's iteration order then. Java keeps the bucket's nodes in a linked list
//! (the order iteration follows) beside the tree; building or rebalancing the tree moves its
//! root to the front of that list (`moveRootToFront`), a new key is linked right after its
//! tree parent (`putTreeVal`), and a removal may rotate a new root to the front or turn the
//! bucket back into a plain list (`removeTreeNode`, `untreeify`). This is Java 17's code
//! (unchanged since Java 8), step for step, on node ids; the map keeps its entries in the
//! same order as [`TreeBin::order`].
//!
//! Keys with equal hashes are ordered by `compareTo` when they are `Comparable` (a `String`);
//! otherwise Java breaks the tie with `System.identityHashCode`, which no emulation can know:
//! the functions say so by returning `false` ("exact"), and the map reports it.

use std::cmp::Ordering;

const NIL: u32 = u32::MAX;

/// `UNTREEIFY_THRESHOLD`: a bucket split by a resize to this many keys or fewer becomes a
/// plain list again.
pub const UNTREEIFY_THRESHOLD: usize = 6;

#[derive(Debug, Clone)]
struct Node {
    /// The spread hash, compared as Java's `int`.
    hash: i32,
    /// The map's slot of the node's entry (what comparisons read the key from).
    key: u32,
    /// Left (0) and right (1) children.
    kids: [u32; 2],
    parent: u32,
    red: bool,
}

/// One tree bucket: its nodes by id and the linked order of their ids (the map's entries
/// for the bucket are kept in this order).
#[derive(Debug, Clone)]
pub struct TreeBin {
    nodes: Vec<Node>,
    /// Node ids in the bucket's linked (iteration) order.
    pub order: Vec<u32>,
}

/// Compares the keys in two of the map's slots as `compareComparables` does; `None` when the
/// keys are not `Comparable`.
pub type CompareKeys<'a> = &'a dyn Fn(u32, u32) -> Option<Ordering>;

impl TreeBin {
    /// `treeify`: a tree over `hashes` (a bucket's spread hashes, in its linked order; node
    /// `i` is entry `i`), then its root moved to the front. Returns the bin and whether Java's
    /// identity tie-break was never needed.
    #[inline(never)]
    pub fn treeify(entries: &[(u32, u32)], cmp: CompareKeys) -> (TreeBin, bool) {
        let mut t = TreeBin {
            nodes: entries
                .iter()
                .map(|(h, key)| Node {
                    hash: *h as i32,
                    key: *key,
                    kids: [NIL; 2],
                    parent: NIL,
                    red: false,
                })
                .collect(),
            order: (0..entries.len() as u32).collect(),
        };
        let exact = t.build(cmp);
        (t, exact)
    }

    /// Builds the tree over the nodes in `order` (as `treeify`, from scratch).
    fn build(&mut self, cmp: CompareKeys) -> bool {
        let mut exact = true;
        let mut root = NIL;
        for x in self.order.clone() {
            let n = &mut self.nodes[x as usize];
            n.kids = [NIL; 2];
            if root == NIL {
                n.parent = NIL;
                n.red = false;
                root = x;
                continue;
            }
            let xk = self.nodes[x as usize].key;
            let cmp_x = |k: u32| cmp(xk, k);
            exact &= self.attach(root, x, &cmp_x);
            root = self.balance_insertion(root, x);
        }
        self.move_root_to_front(root);
        exact
    }

    /// A tree again over the nodes now in `order` (a resize kept more than
    /// [`UNTREEIFY_THRESHOLD`] of them and moved the others).
    #[inline(never)]
    pub fn retreeify(&mut self, cmp: CompareKeys) -> bool {
        self.build(cmp)
    }

    /// The id [`TreeBin::put`] gives the next key.
    pub fn next_id(&self) -> u32 {
        self.nodes.len() as u32
    }

    /// The tree's root: up from the bucket's first node.
    fn root(&self) -> u32 {
        let mut r = self.order[0];
        while self.nodes[r as usize].parent != NIL {
            r = self.nodes[r as usize].parent;
        }
        r
    }

    /// `putTreeVal` for a key not in the bucket, with spread hash `h`; `cmp_new(k)` compares
    /// it with the key in slot `k`; `key` is its own slot. The new node's id is pushed at the end of `order` first (the
    /// map pushes its entry at the end too), then linked after its tree parent. Returns
    /// whether Java's identity tie-break was never needed.
    #[inline(never)]
    pub fn put(&mut self, h: u32, key: u32, cmp_new: &dyn Fn(u32) -> Option<Ordering>) -> bool {
        let h = h as i32;
        let x = self.nodes.len() as u32;
        self.nodes.push(Node {
            hash: h,
            key,
            kids: [NIL; 2],
            parent: NIL,
            red: false,
        });
        self.order.push(x);
        let root = self.root();
        // (Java first searches both subtrees for the key: it is not there.)
        let exact = self.attach(root, x, cmp_new);
        // linked right after its tree parent
        self.order.pop();
        let at = self.position(self.nodes[x as usize].parent) + 1;
        self.order.insert(at, x);
        let r = self.balance_insertion(root, x);
        self.move_root_to_front(r);
        exact
    }

    /// The descent `treeify` and `putTreeVal` share: from `root`, by hash, then by
    /// `cmp(key of the node met)` (`compareComparables`; the identity tie-break when
    /// that says nothing, which makes the answer inexact), to the free child where `x` is
    /// attached. Returns whether the tie-break was never needed.
    fn attach(&mut self, root: u32, x: u32, cmp: &dyn Fn(u32) -> Option<Ordering>) -> bool {
        let h = self.nodes[x as usize].hash;
        let mut exact = true;
        let mut p = root;
        loop {
            let ph = self.nodes[p as usize].hash;
            let d = if ph > h {
                0
            } else if ph < h {
                1
            } else {
                match cmp(self.nodes[p as usize].key) {
                    Some(Ordering::Greater) => 1,
                    Some(Ordering::Less) => 0,
                    _ => {
                        exact = false; // tieBreakOrder: System.identityHashCode
                        0
                    }
                }
            };
            let next = self.nodes[p as usize].kids[d];
            if next == NIL {
                self.nodes[p as usize].kids[d] = x;
                self.nodes[x as usize].parent = p;
                return exact;
            }
            p = next;
        }
    }

    fn position(&self, id: u32) -> usize {
        self.order.iter().position(|o| *o == id).unwrap_or(0)
    }

    /// `removeTreeNode(movable = true)` of node `id`: unlinks it from `order`. Returns false
    /// when the bucket stops being a tree (it is empty, or too small and Java untreeifies
    /// it: the remaining `order` is then the plain list's).
    #[inline(never)]
    pub fn remove(&mut self, id: u32) -> bool {
        let first = self.order[0];
        let at = self.position(id);
        self.order.remove(at);
        if self.order.is_empty() {
            return false;
        }
        let mut root = first;
        while self.nodes[root as usize].parent != NIL {
            root = self.nodes[root as usize].parent;
        }
        let rn = &self.nodes[root as usize];
        if rn.kids[1] == NIL || rn.kids[0] == NIL || self.nodes[rn.kids[0] as usize].kids[0] == NIL
        {
            return false; // too small: untreeify
        }
        let p = id;
        let (pl, pr) = (
            self.nodes[p as usize].kids[0],
            self.nodes[p as usize].kids[1],
        );
        let replacement;
        if pl != NIL && pr != NIL {
            let mut s = pr;
            while self.nodes[s as usize].kids[0] != NIL {
                s = self.nodes[s as usize].kids[0];
            }
            let c = self.nodes[s as usize].red;
            self.nodes[s as usize].red = self.nodes[p as usize].red;
            self.nodes[p as usize].red = c;
            let sr = self.nodes[s as usize].kids[1];
            let pp = self.nodes[p as usize].parent;
            if s == pr {
                self.nodes[p as usize].parent = s;
                self.nodes[s as usize].kids[1] = p;
            } else {
                let sp = self.nodes[s as usize].parent;
                self.nodes[p as usize].parent = sp;
                if sp != NIL {
                    let side = self.side(sp, s);
                    self.nodes[sp as usize].kids[side] = p;
                }
                self.nodes[s as usize].kids[1] = pr;
                self.nodes[pr as usize].parent = s;
            }
            self.nodes[p as usize].kids[0] = NIL;
            self.nodes[p as usize].kids[1] = sr;
            if sr != NIL {
                self.nodes[sr as usize].parent = p;
            }
            self.nodes[s as usize].kids[0] = pl;
            self.nodes[pl as usize].parent = s;
            self.nodes[s as usize].parent = pp;
            if pp == NIL {
                root = s;
            } else {
                let side = self.side(pp, p);
                self.nodes[pp as usize].kids[side] = s;
            }
            replacement = if sr != NIL { sr } else { p };
        } else if pl != NIL {
            replacement = pl;
        } else if pr != NIL {
            replacement = pr;
        } else {
            replacement = p;
        }
        if replacement != p {
            root = self.take_place(root, p, replacement);
            let n = &mut self.nodes[p as usize];
            n.kids = [NIL; 2];
            n.parent = NIL;
        }
        let r = if self.nodes[p as usize].red {
            root
        } else {
            self.balance_deletion(root, replacement)
        };
        if replacement == p {
            let pp = self.nodes[p as usize].parent;
            self.nodes[p as usize].parent = NIL;
            if pp != NIL {
                for k in &mut self.nodes[pp as usize].kids {
                    if *k == p {
                        *k = NIL;
                    }
                }
            }
        }
        self.move_root_to_front(r);
        true
    }

    fn move_root_to_front(&mut self, root: u32) {
        if self.order.first() != Some(&root) {
            let at = self.position(root);
            self.order.remove(at);
            self.order.insert(0, root);
        }
    }

    /// `rotateLeft` (`d` 0: the right child rises) or `rotateRight` (`d` 1: the left child).
    fn rotate(&mut self, mut root: u32, p: u32, d: usize) -> u32 {
        if p == NIL || self.nodes[p as usize].kids[1 - d] == NIL {
            return root;
        }
        let r = self.nodes[p as usize].kids[1 - d];
        let rl = self.nodes[r as usize].kids[d];
        self.nodes[p as usize].kids[1 - d] = rl;
        if rl != NIL {
            self.nodes[rl as usize].parent = p;
        }
        root = self.take_place(root, p, r);
        self.nodes[r as usize].kids[d] = p;
        self.nodes[p as usize].parent = r;
        root
    }

    /// `x` takes `p`'s place under `p`'s parent, or becomes the (black) root: what a
    /// rotation and a removal's replacement both do. Returns the root.
    fn take_place(&mut self, root: u32, p: u32, x: u32) -> u32 {
        let pp = self.nodes[p as usize].parent;
        self.nodes[x as usize].parent = pp;
        if pp == NIL {
            self.nodes[x as usize].red = false;
            return x;
        }
        let side = self.side(pp, p);
        self.nodes[pp as usize].kids[side] = x;
        root
    }

    /// Which child of `parent` `x` is (0 left, 1 right).
    fn side(&self, parent: u32, x: u32) -> usize {
        usize::from(self.nodes[parent as usize].kids[0] != x)
    }

    fn red(&self, x: u32) -> bool {
        x != NIL && self.nodes[x as usize].red
    }

    fn set_red(&mut self, x: u32, red: bool) {
        if x != NIL {
            self.nodes[x as usize].red = red;
        }
    }

    fn parent(&self, x: u32) -> u32 {
        if x == NIL {
            NIL
        } else {
            self.nodes[x as usize].parent
        }
    }

    fn kid(&self, x: u32, d: usize) -> u32 {
        if x == NIL {
            NIL
        } else {
            self.nodes[x as usize].kids[d]
        }
    }

    /// `balanceInsertion`, its two mirrored halves as one (`s`: which child of the
    /// grandparent the parent is).
    fn balance_insertion(&mut self, mut root: u32, mut x: u32) -> u32 {
        self.nodes[x as usize].red = true;
        loop {
            let mut xp = self.parent(x);
            if xp == NIL {
                self.nodes[x as usize].red = false;
                return x;
            }
            let mut xpp = self.parent(xp);
            if !self.nodes[xp as usize].red || xpp == NIL {
                return root;
            }
            let s = self.side(xpp, xp);
            let uncle = self.kid(xpp, 1 - s);
            if self.red(uncle) {
                self.set_red(uncle, false);
                self.set_red(xp, false);
                self.set_red(xpp, true);
                x = xpp;
            } else {
                if x == self.kid(xp, 1 - s) {
                    x = xp;
                    root = self.rotate(root, x, s);
                    xp = self.parent(x);
                    xpp = self.parent(xp);
                }
                if xp != NIL {
                    self.set_red(xp, false);
                    if xpp != NIL {
                        self.set_red(xpp, true);
                        root = self.rotate(root, xpp, 1 - s);
                    }
                }
            }
        }
    }

    /// `balanceDeletion`, its two mirrored halves as one (`s`: which child of its parent
    /// `x` is).
    fn balance_deletion(&mut self, mut root: u32, mut x: u32) -> u32 {
        loop {
            if x == NIL || x == root {
                return root;
            }
            let mut xp = self.parent(x);
            if xp == NIL {
                self.nodes[x as usize].red = false;
                return x;
            }
            if self.nodes[x as usize].red {
                self.nodes[x as usize].red = false;
                return root;
            }
            let s = self.side(xp, x);
            let mut sib = self.kid(xp, 1 - s);
            if self.red(sib) {
                self.set_red(sib, false);
                self.set_red(xp, true);
                root = self.rotate(root, xp, s);
                xp = self.parent(x);
                sib = self.kid(xp, 1 - s);
            }
            if sib == NIL {
                x = xp;
                continue;
            }
            let (near, far) = (self.kid(sib, s), self.kid(sib, 1 - s));
            if !self.red(far) && !self.red(near) {
                self.set_red(sib, true);
                x = xp;
                continue;
            }
            if !self.red(far) {
                self.set_red(near, false);
                self.set_red(sib, true);
                root = self.rotate(root, sib, 1 - s);
                xp = self.parent(x);
                sib = self.kid(xp, 1 - s);
            }
            if sib != NIL {
                let red = self.red(xp);
                self.set_red(sib, red);
                let far = self.kid(sib, 1 - s);
                self.set_red(far, false);
            }
            if xp != NIL {
                self.set_red(xp, false);
                root = self.rotate(root, xp, s);
            }
            x = root;
        }
    }
}
