//! The whole learning pipeline at toy size: seeded games make rows (written and read back as
//! safetensors), a short training, the weights loaded by the bots' own inference, and a game
//! played by the search that uses them.

use std::sync::Arc;

use oh7_bots::Bot;
use oh7_bots::hand_model::{HAND_INPUT, HandModel, LOCS};
use oh7_bots::ismcts::{IsmctsBot, IsmctsConfig};
use oh7_bots::policy::{PolicyNet, PolicyPrior};
use oh7_core::card::CARD_IDS;
use oh7_core::game::Game;
use oh7_core::oh7::Oh7Game;
use oh7_core::rl::OH7_ACTIONS;
use oh7_core::ruleset::{Preset, Ruleset};
use oh7_learn::data::{DataMeta, DataPlan, FORMAT, generate, read, write};
use oh7_learn::train::{TrainPlan, evaluate, evaluate_prior, train, train_prior};

fn plan(games: u64, baseline: u32) -> DataPlan {
    DataPlan {
        rules: Ruleset::preset(Preset::Kod7),
        players: 4,
        games,
        seed: 5,
        bots: vec!["ismcts:iterations=30".into(), "heuristic".into()],
        shard: None,
        rounds: 1,
        baseline,
        explore_bets: 0.0,
    }
}

fn meta(p: &DataPlan) -> DataMeta {
    DataMeta {
        format: FORMAT.into(),
        preset: "kod7".into(),
        rules: p.rules,
        players: p.players,
        games: p.games,
        seed: p.seed,
        bots: p.bots.clone(),
        shard: None,
        rounds: p.rounds,
        baseline: p.baseline,
        explore_bets: p.explore_bets,
    }
}

#[test]
fn toy_pipeline_from_games_to_a_game_played_with_the_trained_model() {
    let dir = tempfile::tempdir().unwrap();
    let p = plan(20, 16);
    let rows = generate(&p, &|_| {}).unwrap();
    assert!(rows.len() > 300, "{} rows", rows.len());
    // Every row: one legal id at least, the action among them, hidden cards only where allowed.
    for k in 0..rows.len() {
        let mask = &rows.mask[k * OH7_ACTIONS..(k + 1) * OH7_ACTIONS];
        assert!(mask[rows.action[k] as usize] == 1, "row {k}: the action taken is not legal");
        let mut hidden = 0;
        for c in 0..CARD_IDS {
            let h = rows.hidden[k * CARD_IDS + c];
            if h != 255 {
                hidden += 1;
                assert!(rows.allowed[k * CARD_IDS + c] & (1 << h) != 0, "row {k}: card {c} where it may not be");
                assert!((h as usize) < LOCS && h != 0, "row {k}: card {c} in my own hand is hidden");
            }
        }
        // A decision with hidden cards has a measured baseline.
        assert!(hidden == 0 || rows.uniform_nll[k].is_finite());
        if rows.searched[k] == 1 {
            let total: f32 = rows.visits[k * OH7_ACTIONS..(k + 1) * OH7_ACTIONS]
                .iter()
                .map(|&b| half::f16::from_bits(b).to_f32())
                .sum();
            assert!((total - 1.0).abs() < 0.02, "row {k}: visits sum to {total}");
        }
    }
    // Points: a seat's rows of one round all carry the same points.
    for k in 1..rows.len() {
        if rows.game[k] == rows.game[k - 1] && rows.seat[k] == rows.seat[k - 1] {
            assert_eq!(rows.points[k], rows.points[k - 1]);
        }
    }
    // Deterministic by seed, and the shards make the whole.
    let again = generate(&p, &|_| {}).unwrap();
    assert_eq!(
        (again.obs.clone(), again.hidden.clone(), again.action.clone()),
        (rows.obs.clone(), rows.hidden.clone(), rows.action.clone())
    );
    let mut halves = generate(&DataPlan { shard: Some("0/2".parse().unwrap()), ..p.clone() }, &|_| {}).unwrap();
    halves.append(generate(&DataPlan { shard: Some("1/2".parse().unwrap()), ..p.clone() }, &|_| {}).unwrap());
    assert_eq!((halves.action.clone(), halves.game.clone()), (rows.action.clone(), rows.game.clone()));
    // Written and read back.
    let file = dir.path().join("d.safetensors");
    write(&file, &rows, &meta(&p)).unwrap();
    let (back, m) = read(&file).unwrap();
    assert_eq!(m, meta(&p));
    assert_eq!(
        (back.obs.len(), back.hidden.clone(), back.points.clone()),
        (rows.obs.len(), rows.hidden.clone(), rows.points.clone())
    );
    // A short training fits the rows better than the untrained model (the room-proportional
    // rule, all but no step taken); the weights load in the bots' inference.
    let tp = TrainPlan { hidden: 16, layers: 1, epochs: 6, batch: 32, lr: 1e-2, ..TrainPlan::default() };
    let (bytes, epochs) = train(&back, &tp, &mut |_| {}).unwrap();
    assert_eq!(epochs.len(), 6);
    // The same data and seed give the same weights, bit for bit, on one thread or several.
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let (again, _) = one.install(|| train(&back, &tp, &mut |_| {})).unwrap();
    assert!(again == bytes, "one thread trained other weights");
    let model = HandModel::from_safetensors(&bytes).unwrap();
    let (zero, _) = train(&back, &TrainPlan { lr: 1e-12, epochs: 1, ..tp.clone() }, &mut |_| {}).unwrap();
    let zero = HandModel::from_safetensors(&zero).unwrap();
    let (fit, start) = (evaluate(&model, &back, false).model, evaluate(&zero, &back, false).model);
    assert!(fit < start - 0.005, "trained {fit} nats per card, untrained {start}");
    assert_eq!(model.logits(&vec![0.0; HAND_INPUT], &[0; CARD_IDS]).len(), CARD_IDS * LOCS);
    // The evaluation's model figure is the training's held-out loss (same rows, same softmax),
    // up to the F16 weights.
    let ce = evaluate(&model, &back, true);
    let best = epochs.iter().map(|e| e.held_out).fold(f64::INFINITY, f64::min);
    assert!((ce.model - best).abs() < 0.02, "eval {} against training {best}", ce.model);
    assert!(ce.uniform > 0.0 && ce.cards > 100);
    // The policy prior: a short training on the searched rows fits their visits better than
    // the untrained (uniform) prior, and loads in the bots' inference.
    let pp = TrainPlan { hidden: 16, layers: 1, epochs: 4, batch: 16, lr: 3e-3, ..TrainPlan::default() };
    let (prior_bytes, prior_epochs) = train_prior(&back, &pp, &mut |_| {}).unwrap();
    let prior = PolicyNet::from_safetensors(&prior_bytes).unwrap();
    let (flat, _) = train_prior(&back, &TrainPlan { lr: 1e-12, epochs: 1, ..pp.clone() }, &mut |_| {}).unwrap();
    let flat = PolicyNet::from_safetensors(&flat).unwrap();
    let (fit, start) = (evaluate_prior(&prior, &back, false), evaluate_prior(&flat, &back, false));
    assert!(fit.model < start.model - 0.01, "trained prior {} nats, untrained {}", fit.model, start.model);
    assert!((start.model - start.uniform).abs() < 1e-3, "the untrained prior is uniform: {start:?}");
    assert!(prior_epochs.iter().all(|e| e.held_out.is_finite()));
    // A game played to its end by the search with both trained models in every seat.
    let model = Arc::new(model);
    let prior = Arc::new(prior);
    let mut g = Oh7Game::new(Ruleset::preset(Preset::Kod7), 4, 77).unwrap();
    let mut bots: Vec<IsmctsBot> = (0..4)
        .map(|s| {
            IsmctsBot::new(IsmctsConfig { iterations: 30, ..IsmctsConfig::default() }, s)
                .with_hand_model(model.clone())
                .with_prior(Box::new(PolicyPrior::new(prior.clone())))
        })
        .collect();
    let mut legal = Vec::new();
    let mut steps = 0;
    while let Some(seat) = g.to_move().lowest() {
        g.legal_actions(seat, &mut legal);
        let a = bots[seat].choose(&g.view(seat), &legal);
        g.apply(seat, a).unwrap();
        steps += 1;
        assert!(steps < 100_000);
    }
    assert!(g.is_over());
}

#[test]
fn bad_data_files_are_refused_with_a_reason() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("none.safetensors");
    let e = read(&missing).unwrap_err();
    assert!(matches!(e, oh7_learn::LearnError::Open { .. }) && e.to_string().contains("cannot open"), "{e}");
    let junk = dir.path().join("junk.safetensors");
    std::fs::write(&junk, b"not a tensor file").unwrap();
    assert!(read(&junk).is_err());
    // A model file is not a data file.
    let model = dir.path().join("model.safetensors");
    std::fs::write(&model, oh7_bots::hand_model::SHIPPED).unwrap();
    let e = read(&model).unwrap_err();
    assert!(matches!(e, oh7_learn::LearnError::File { .. }) && e.to_string().contains("not an oh7 data file"), "{e}");
    // Too few games to hold any out.
    let rows = generate(&plan(3, 0), &|_| {}).unwrap();
    assert!(
        train(&rows, &TrainPlan { epochs: 1, ..TrainPlan::default() }, &mut |_| {})
            .unwrap_err()
            .to_string()
            .contains("at least 10 games")
    );
}

/// The leaf value at toy size: value rows from seeded games (each a player's true tricks still
/// to win, never more than the tricks left), written and read back, a short training that beats
/// the model that reads nothing of the position, and a game played by the search that values
/// its leaves with it.
#[test]
fn toy_pipeline_of_the_leaf_value() {
    use oh7_bots::value::{LearnedValue, VALUE_FEATURES, ValueNet};
    use oh7_learn::value::{evaluate_value, generate_value, read_value, train_value, write_value};
    let dir = tempfile::tempdir().unwrap();
    let p = DataPlan { bots: vec!["heuristic".into(), "random".into()], ..plan(30, 0) };
    let rows = generate_value(&p, &|_| {}).unwrap();
    // 30 games of one round: 7 tricks of 4 cards, 4 players each.
    assert_eq!(rows.len(), 30 * 7 * 4 * 4);
    assert_eq!(rows.feats.len(), rows.len() * VALUE_FEATURES);
    assert!((0..rows.len()).all(|k| rows.more[k] <= rows.left[k] && rows.left[k] >= 1));
    assert!(rows.feats.iter().all(|x| x.is_finite()));
    let path = dir.path().join("value.safetensors");
    write_value(&path, &rows, &meta(&p)).unwrap();
    let back = read_value(&path).unwrap();
    assert_eq!(
        (back.feats.clone(), back.more.clone(), back.game.clone()),
        (rows.feats.clone(), rows.more.clone(), rows.game.clone())
    );
    let again = generate_value(&p, &|_| {}).unwrap();
    assert_eq!((again.feats, again.more), (rows.feats.clone(), rows.more.clone()), "a seed gives the same rows");
    // Hand-model data files are not value files.
    assert!(read(&path).is_err());
    let tp = TrainPlan { hidden: 16, layers: 1, epochs: 6, batch: 32, lr: 3e-3, ..TrainPlan::default() };
    let (bytes, epochs) = train_value(&rows, &tp, &mut |_| {}).unwrap();
    let (bytes2, _) = train_value(&rows, &tp, &mut |_| {}).unwrap();
    assert_eq!(bytes, bytes2, "the same data and seed give the same weights");
    assert!(epochs.iter().all(|e| e.held_out.is_finite()));
    let net = ValueNet::from_safetensors(&bytes).unwrap();
    let (ce, base, mae, n) = evaluate_value(&net, &rows);
    assert!(n > 100 && ce < base, "the trained value {ce} nats against {base} for tricks left alone");
    assert!(mae < 1.5, "{mae}");
    // A game played to its end by the search valuing its leaves with the trained network.
    let net = Arc::new(net);
    let mut g = Oh7Game::new(Ruleset::preset(Preset::Kod7), 4, 78).unwrap();
    let cfg = IsmctsConfig { iterations: 30, ..IsmctsConfig::default() };
    let mut bots: Vec<IsmctsBot> = (0..4)
        .map(|s| {
            IsmctsBot::new(cfg, s).with_evaluator(Box::new(LearnedValue::new(
                net.clone(),
                cfg.playout(),
                cfg.value_bets,
            )))
        })
        .collect();
    let mut legal = Vec::new();
    while let Some(seat) = g.to_move().lowest() {
        g.legal_actions(seat, &mut legal);
        let a = bots[seat].choose(&g.view(seat), &legal);
        g.apply(seat, a).unwrap();
    }
    assert!(g.is_over());
}

/// The bid evaluator's pipeline (issue 56): explored bets are drawn, only bets that stood are
/// kept, the rows do not depend on the threads, a network trains on them and a bot bets by it.
#[test]
fn bets_explored_trained_and_played() {
    use oh7_learn::bets::{generate_bets, read_bets, train_bets, write_bets};
    let dir = tempfile::tempdir().unwrap();
    let p = DataPlan { bots: vec!["heuristic".into()], rounds: 3, explore_bets: 0.5, ..plan(40, 0) };
    let rows = generate_bets(&p, &|_| {}).unwrap();
    assert!(rows.len() >= 40 * 4 * 2, "{} rows", rows.len());
    let explored = rows.explored.iter().filter(|&&e| e == 1).count();
    assert!(explored > rows.len() / 4 && explored < rows.len() * 3 / 4, "{explored} of {}", rows.len());
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let again = one.install(|| generate_bets(&p, &|_| {})).unwrap();
    assert_eq!((again.points.clone(), again.explored.clone()), (rows.points.clone(), rows.explored.clone()));
    let none = generate_bets(&DataPlan { explore_bets: 0.0, ..p.clone() }, &|_| {}).unwrap();
    assert!(none.explored.iter().all(|&e| e == 0));
    assert!(generate_bets(&DataPlan { explore_bets: 1.5, ..p.clone() }, &|_| {}).is_err());
    let file = dir.path().join("bets.safetensors");
    write_bets(&file, &rows, &DataMeta { format: String::new(), ..meta(&p) }).unwrap();
    let back = read_bets(&file).unwrap();
    assert_eq!((back.points, back.feats.len()), (rows.points.clone(), rows.feats.len()));
    assert!(read(&file).is_err(), "a bet file is not a decision file");
    let e = oh7_learn::value::read_value(&file).unwrap_err().to_string();
    assert!(e.contains("format oh7-learn-bets/1 (the leaf value reads oh7-learn-value/1)"), "{e}");
    let tp = TrainPlan { hidden: 16, layers: 1, epochs: 2, ..TrainPlan::default() };
    let (bytes, epochs) = train_bets(&rows, &tp, &mut |_| {}).unwrap();
    assert_eq!(epochs.len(), 2);
    let model = dir.path().join("bet.safetensors");
    std::fs::write(&model, &bytes).unwrap();
    let net = oh7_bots::bet_model::BetNet::from_safetensors(&bytes).unwrap();
    let (ce, base, _, _, held) = oh7_learn::bets::evaluate_bets(&net, &rows);
    assert!(held > 0 && ce.is_finite() && base.is_finite());
    // A bot that bets by it plays whole games.
    let level = format!("mix:betnet={}:heuristic", model.display());
    let mut g = Oh7Game::new(Ruleset::preset(Preset::Kod7), 4, 9).unwrap();
    let mut bots: Vec<Box<dyn oh7_bots::Bot<Oh7Game>>> =
        (0..4).map(|s| oh7_bots::oh7_bot(&level, s).unwrap()).collect();
    oh7_bots::play_game(&mut g, &mut bots, 100_000).unwrap();
    assert!(oh7_bots::oh7_bot("betnet=/nonexistent.safetensors", 0).is_err());
    // Inside the search: the expert's bet search chooses among the model's two best.
    let inside = oh7_bots::oh7_bot(&format!("betnet:2={}", model.display()), 1).unwrap();
    assert_eq!(inside.name(), format!("betnet:2={}", model.display()));
    assert!(oh7_bots::oh7_bot("betnet:0=m.safetensors", 0).is_err());
}
