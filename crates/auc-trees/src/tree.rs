//! One regression tree: internal nodes that send a row left when its feature's value is at
//! most the node's cut point, and a value at each leaf.

use auc_core::Row;
use serde::{Deserialize, Serialize};

/// A child: another node, or a leaf.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Child {
    /// The internal node of this index (always larger than its parent's).
    Node(u32),
    /// The leaf of this index.
    Leaf(u32),
}

/// An internal node: rows with `x[feature] <= cut` go left.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Node {
    /// The feature tested.
    pub feature: u32,
    /// The cut point.
    pub cut: f64,
    /// Where rows with `x[feature] <= cut` go.
    pub left: Child,
    /// Where the others go.
    pub right: Child,
}

/// A tree: node 0 is the root when there are nodes; a tree of one leaf has none.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tree {
    /// The internal nodes, each after its parent.
    pub nodes: Vec<Node>,
    /// The leaves' values (the learning rate applied).
    pub leaves: Vec<f64>,
}

impl Tree {
    /// The value of the leaf row `x` falls in.
    pub fn predict(&self, x: Row<'_>) -> f64 {
        if self.nodes.is_empty() {
            return self.leaves[0];
        }
        let mut at = 0usize;
        loop {
            let node = &self.nodes[at];
            let next = if x.get(node.feature as usize) <= node.cut {
                node.left
            } else {
                node.right
            };
            match next {
                Child::Node(k) => at = k as usize,
                Child::Leaf(k) => return self.leaves[k as usize],
            }
        }
    }

    /// Checks a decoded tree for rows of `dim` features: finite values and cut points, features
    /// below `dim`, children after their parents, every leaf reached exactly once and every
    /// node but the root exactly once (so that prediction ends).
    pub fn validate(&self, dim: usize) -> Result<(), String> {
        if self.leaves.len() != self.nodes.len() + 1 {
            return Err(format!(
                "{} leaves under {} nodes (a binary tree has one more leaf than nodes)",
                self.leaves.len(),
                self.nodes.len()
            ));
        }
        if let Some(v) = self.leaves.iter().find(|v| !v.is_finite()) {
            return Err(format!("a leaf value {v} is not finite"));
        }
        if self.nodes.is_empty() {
            return Ok(());
        }
        let mut leaf_seen = vec![false; self.leaves.len()];
        let mut node_seen = vec![false; self.nodes.len()];
        for (k, node) in self.nodes.iter().enumerate() {
            if node.feature as usize >= dim {
                return Err(format!("node {k} tests feature {} of {dim}", node.feature));
            }
            if !node.cut.is_finite() {
                return Err(format!("node {k} has the cut point {}", node.cut));
            }
            for child in [node.left, node.right] {
                let seen = match child {
                    Child::Node(c) if (c as usize) > k && (c as usize) < self.nodes.len() => {
                        &mut node_seen[c as usize]
                    }
                    Child::Leaf(c) if (c as usize) < self.leaves.len() => {
                        &mut leaf_seen[c as usize]
                    }
                    _ => return Err(format!("node {k} has the child {child:?}")),
                };
                if std::mem::replace(seen, true) {
                    return Err(format!("node {k}'s child {child:?} has another parent"));
                }
            }
        }
        if node_seen.iter().skip(1).any(|s| !s) || leaf_seen.iter().any(|s| !s) {
            return Err("a node or leaf is not reached from the root".to_owned());
        }
        Ok(())
    }
}
