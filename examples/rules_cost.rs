//! What the repetition rules cost the search: `bench` under the Chinese rules and under the
//! `draw` rule set, interleaved, `runs` times each; prints both medians and their ratio.
//! `cargo run --release --example rules_cost -- [depth] [runs]`
use chuhan::rules::RuleSet;
use chuhan::tools::bench::run_with_rules;

fn main() {
    let args: Vec<u32> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let depth = args.first().copied().unwrap_or(9);
    let runs = args.get(1).copied().unwrap_or(5);
    let mut nps = [Vec::new(), Vec::new()];
    let mut nodes = [0, 0];
    for _ in 0..runs {
        for (i, rules) in [RuleSet::Chinese, RuleSet::Draw].into_iter().enumerate() {
            let r = run_with_rules(depth, 1, 16, rules).expect("16 MB");
            nodes[i] = r.nodes;
            nps[i].push(r.nodes as f64 * 1000.0 / r.millis.max(1) as f64);
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(|a, b| a.total_cmp(b));
        v[v.len() / 2]
    };
    let (c, d) = (median(&mut nps[0]), median(&mut nps[1]));
    println!("chinese: {} nodes, median {c:.0} nps", nodes[0]);
    println!("draw:    {} nodes, median {d:.0} nps", nodes[1]);
    println!("chinese/draw nps ratio: {:.3}", c / d);
}
