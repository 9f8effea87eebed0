//! Directed graphs for the propagators that reason on them: a graph in
//! compressed rows and Tarjan's strongly connected components (Tarjan 1972),
//! iterative and with buffers that are reused from call to call. The
//! all-different matching runs it on its variable-value graph; `circuit` on
//! the successor graph.

/// No node (the component or index of a node not yet visited).
const NONE: u32 = u32::MAX;

/// A directed graph in compressed rows, rebuilt at each call without allocating:
/// the out-edges of node `k` are `edges[start[k]..start[k + 1]]`.
#[derive(Debug, Default)]
pub(crate) struct Graph {
    pub(crate) start: Vec<u32>,
    pub(crate) edges: Vec<u32>,
}

impl Graph {
    /// Empties the graph, keeping its buffers.
    pub(crate) fn clear(&mut self) {
        self.start.clear();
        self.edges.clear();
    }

    /// Starts the out-edges of the next node (call it once per node, in order,
    /// then [`finish`](Graph::finish)).
    pub(crate) fn open_node(&mut self) {
        self.start.push(self.edges.len() as u32);
    }

    /// Closes the last node.
    pub(crate) fn finish(&mut self) {
        self.start.push(self.edges.len() as u32);
    }

    /// The number of nodes.
    pub(crate) fn len(&self) -> usize {
        self.start.len().saturating_sub(1)
    }

    #[inline]
    pub(crate) fn out(&self, node: u32) -> &[u32] {
        &self.edges[self.start[node as usize] as usize..self.start[node as usize + 1] as usize]
    }
}

/// Iterative Tarjan strongly connected components, with reusable buffers.
/// After [`run`](Tarjan::run), `component[k]` numbers node `k`'s component;
/// components are numbered in the order they close (a component's edges lead
/// only to components with smaller numbers).
#[derive(Debug, Default)]
pub(crate) struct Tarjan {
    index: Vec<u32>,
    low: Vec<u32>,
    pub(crate) component: Vec<u32>,
    /// The number of components found by the last run.
    pub(crate) components: u32,
    on_stack: Vec<bool>,
    stack: Vec<u32>,
    call: Vec<(u32, u32)>,
}

impl Tarjan {
    pub(crate) fn run(&mut self, graph: &Graph) {
        let nodes = graph.len();
        for buffer in [&mut self.index, &mut self.component] {
            buffer.clear();
            buffer.resize(nodes, NONE);
        }
        self.low.clear();
        self.low.resize(nodes, 0);
        self.on_stack.clear();
        self.on_stack.resize(nodes, false);
        self.stack.clear();
        let mut next_index = 0u32;
        let mut next_component = 0u32;
        for root in 0..nodes as u32 {
            if self.index[root as usize] != NONE {
                continue;
            }
            self.visit(root, &mut next_index);
            while let Some(&mut (node, ref mut k)) = self.call.last_mut() {
                let out = graph.out(node);
                if let Some(&next) = out.get(*k as usize) {
                    *k += 1;
                    if self.index[next as usize] == NONE {
                        self.visit(next, &mut next_index);
                    } else if self.on_stack[next as usize] {
                        let low = self.low[node as usize].min(self.index[next as usize]);
                        self.low[node as usize] = low;
                    }
                    continue;
                }
                self.call.pop();
                if self.low[node as usize] == self.index[node as usize] {
                    loop {
                        let member = self.stack.pop().expect("the root is on the stack");
                        self.on_stack[member as usize] = false;
                        self.component[member as usize] = next_component;
                        if member == node {
                            break;
                        }
                    }
                    next_component += 1;
                }
                if let Some(&(parent, _)) = self.call.last() {
                    let low = self.low[parent as usize].min(self.low[node as usize]);
                    self.low[parent as usize] = low;
                }
            }
        }
        self.components = next_component;
    }

    fn visit(&mut self, node: u32, next_index: &mut u32) {
        self.index[node as usize] = *next_index;
        self.low[node as usize] = *next_index;
        *next_index += 1;
        self.stack.push(node);
        self.on_stack[node as usize] = true;
        self.call.push((node, 0));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(edges: &[&[u32]]) -> Graph {
        let mut graph = Graph::default();
        for out in edges {
            graph.open_node();
            graph.edges.extend_from_slice(out);
        }
        graph.finish();
        graph
    }

    #[test]
    fn components_of_a_cycle_and_a_tail() {
        // 0 -> 1 -> 2 -> 0 is one component; 3 -> 0 is a component alone.
        let mut tarjan = Tarjan::default();
        tarjan.run(&graph(&[&[1], &[2], &[0], &[0]]));
        assert_eq!(tarjan.components, 2);
        let c = &tarjan.component;
        assert!(c[0] == c[1] && c[1] == c[2] && c[3] != c[0]);
        // The tail closes after the cycle it leads to.
        assert!(c[3] > c[0]);
    }
}
