//! The records the Python package must reproduce (`python/tests/test_record.py`): seeded games
//! played by action id, written by Rust. The Python test replays the same ids through
//! `oh7.env` and compares its `env.record()` with the record here, byte for byte after JSON
//! parsing. Set `OH7_BLESS=1` to rewrite the files after a deliberate change of the engine.

use oh7_bots::GameSpec;
use oh7_core::ruleset::{Preset, Ruleset};
use oh7_core::seven::SevenRules;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

fn fixture(spec: &GameSpec, args: Value, players: usize, seed: u64) -> Value {
    let mut env = spec.rl_env(players, seed).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x0907);
    let mut mask = vec![false; env.actions()];
    let mut ids = Vec::new();
    while let Some(seat) = env.to_act() {
        env.mask(seat, &mut mask);
        let legal: Vec<usize> = (0..mask.len()).filter(|&i| mask[i]).collect();
        let id = legal[rng.random_range(0..legal.len())];
        env.step(seat, id).unwrap();
        ids.push(id);
    }
    json!({"args": args, "players": players, "seed": seed, "ids": ids, "record": env.game().record()})
}

#[test]
fn python_record_fixtures() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../python/tests/fixtures");
    let passing = "preset = \"bga\"\npassing = true\n";
    let cases = [
        ("kod7-4", GameSpec::Oh7 { ruleset: Ruleset::preset(Preset::Kod7) }, json!({"preset": "kod7"}), 4, 5),
        ("en-2", GameSpec::Oh7 { ruleset: Ruleset::preset(Preset::En) }, json!({"preset": "en"}), 2, 7),
        (
            "bga-passing-5",
            GameSpec::Oh7 { ruleset: Ruleset::from_toml(passing).unwrap() },
            json!({"ruleset": passing}),
            5,
            6,
        ),
        (
            "seven-4",
            GameSpec::Seven { rules: SevenRules { limit: Some(60), ..SevenRules::default() } },
            json!({"game": "seven", "limit": 60}),
            4,
            8,
        ),
    ];
    let bless = std::env::var_os("OH7_BLESS").is_some();
    for (name, spec, args, players, seed) in cases {
        let got = fixture(&spec, args, players, seed);
        let path = dir.join(format!("{name}.json"));
        if bless {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, serde_json::to_string(&got).unwrap() + "\n").unwrap();
            continue;
        }
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (OH7_BLESS=1 writes it)", path.display()));
        let want: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(got, want, "{name}: the engine no longer plays these ids to this record");
    }
}
