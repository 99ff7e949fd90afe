// rnn.rs - recurrent nets through the safe API: the LSTM/GRU/RNN stacks' shapes and torch parameter names, a stack
// equal to stepping its cell, packed batches equal to each sequence run alone (in the caller's order), gradients
// against central differences (bidirectional LSTM with projection, GRU cell), and errors as typed variants.
mod common;

use common::{assert_close, det, err_of, gradcheck, run, vals};
use ctensor::rnn::{self, pack_padded_sequence, pad_packed_sequence, pad_sequence, Rnn, RnnCell, RnnMode, RnnOptions};
use ctensor::{DType, Error, Tensor};

fn f64_opts(o: RnnOptions) -> RnnOptions {
    RnnOptions { dtype: DType::Float64, ..o }
}

#[test]
fn stacks_have_torch_shapes_and_names() {
    run(|| {
        let opts = f64_opts(RnnOptions { num_layers: 2, bidirectional: true, proj_size: 3, ..Default::default() });
        let lstm = Rnn::new(RnnMode::Lstm, 4, 5, opts)?;
        let names: Vec<&str> = lstm.params.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(&names[..5], &["weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0", "weight_hr_l0"]);
        assert_eq!(lstm.param("weight_ih_l1_reverse").unwrap().size(), vec![20, 6]);
        assert!(vals(lstm.param("weight_hh_l0").unwrap()).iter().all(|v| v.abs() <= 1.0 / 5f64.sqrt()));
        let (out, hy, cy) = lstm.forward(&det(&[7, 2, 4], 0.1), None, None)?;
        assert_eq!(out.size(), vec![7, 2, 6]);
        assert_eq!(hy.size(), vec![4, 2, 3]);
        assert_eq!(cy.unwrap().size(), vec![4, 2, 5]);
        let gru = Rnn::new(RnnMode::Gru, 4, 5, f64_opts(RnnOptions { batch_first: true, ..Default::default() }))?;
        let (out, hy, cy) = gru.forward(&det(&[2, 7, 4], 0.2), None, None)?;
        assert_eq!((out.size(), hy.size(), cy.is_none()), (vec![2, 7, 5], vec![1, 2, 5], true));
        Ok(())
    });
}

#[test]
fn stack_equals_stepping_the_cell() {
    run(|| {
        for mode in [RnnMode::RnnTanh, RnnMode::RnnRelu, RnnMode::Lstm, RnnMode::Gru] {
            let cell = RnnCell::new(mode, 3, 4, true, DType::Float64)?;
            let x = det(&[5, 2, 3], 0.4);
            let w = [&cell.weight_ih, &cell.weight_hh, cell.bias_ih.as_ref().unwrap(), cell.bias_hh.as_ref().unwrap()];
            let (out, _, _) = rnn::rnn(mode, &x, None, None, &w, true, 1, 0.0, false, false, false, 0, None, None)?;
            let (mut h, mut c) = (Tensor::zeros(&[2, 4], DType::Float64)?, Tensor::zeros(&[2, 4], DType::Float64)?);
            for t in 0..5 {
                let (hy, cy) = cell.forward(&x.select(0, t)?, Some(&h), Some(&c))?;
                assert_close(&vals(&hy), &vals(&out.select(0, t)?), 1e-12, 1e-12);
                h = hy;
                if let Some(cy) = cy {
                    c = cy;
                }
            }
        }
        Ok(())
    });
}

#[test]
fn packed_batches_equal_each_sequence_alone() {
    run(|| {
        let opts = f64_opts(RnnOptions { num_layers: 2, bidirectional: true, ..Default::default() });
        let gru = Rnn::new(RnnMode::Gru, 2, 3, opts)?;
        let lengths = [2i64, 4, 1];
        let seqs: Vec<Tensor> = lengths.iter().map(|&n| det(&[n, 2], n as f64)).collect();
        let refs: Vec<&Tensor> = seqs.iter().collect();
        let padded = pad_sequence(&refs, false, 0.0)?;
        assert_eq!(padded.size(), vec![4, 3, 2]);
        let packed = pack_padded_sequence(&padded, &lengths, false, false)?;
        assert_eq!(packed.batch_sizes, vec![3, 2, 1, 1]);
        let (out, hy, _) = gru.forward_packed(&packed, None, None)?;
        let (unpacked, lens) = pad_packed_sequence(&out, true, -1.0)?;
        assert_eq!(lens, lengths.to_vec());
        for (b, s) in seqs.iter().enumerate() {
            let (alone, h_alone, _) = gru.forward(&s.unsqueeze(1)?, None, None)?;
            let n = lengths[b];
            let got = unpacked.select(0, b as i64)?.narrow(0, 0, n)?;
            assert_close(&vals(&got), &vals(&alone.squeeze(1)?), 1e-12, 1e-12);
            assert_close(&vals(&hy.select(1, b as i64)?), &vals(&h_alone.squeeze(1)?), 1e-12, 1e-12);
        }
        assert!(vals(&unpacked.select(0, 2)?.narrow(0, 1, 3)?).iter().all(|&v| v == -1.0));
        Ok(())
    });
}

#[test]
fn gradients_match_central_differences() {
    run(|| {
        let opts = f64_opts(RnnOptions { bidirectional: true, proj_size: 2, ..Default::default() });
        let lstm = Rnn::new(RnnMode::Lstm, 2, 3, opts)?;
        let w = lstm.parameters();
        let mut inputs = vec![det(&[3, 2, 2], 0.3)];
        inputs.extend(w.iter().cloned());
        let refs: Vec<&Tensor> = inputs.iter().collect();
        gradcheck(
            |v| {
                let ws: Vec<&Tensor> = v[1..].iter().collect();
                let (out, hy, cy) =
                    rnn::rnn(RnnMode::Lstm, &v[0], None, None, &ws, true, 1, 0.0, true, true, false, 2, None, None)?;
                Tensor::cat(&[&out.reshape(&[-1])?, &hy.reshape(&[-1])?, &cy.unwrap().reshape(&[-1])?], 0)
            },
            &refs,
        )?;
        let cell = RnnCell::new(RnnMode::Gru, 2, 3, true, DType::Float64)?;
        let (x, h) = (det(&[2, 2], 0.5), det(&[2, 3], 0.6));
        gradcheck(
            |v| Ok(rnn::rnn_cell(RnnMode::Gru, &v[0], Some(&v[1]), None, &v[2], &v[3], Some(&v[4]), Some(&v[5]))?.0),
            &[&x, &h, &cell.weight_ih, &cell.weight_hh, cell.bias_ih.as_ref().unwrap(), cell.bias_hh.as_ref().unwrap()],
        )
    });
}

#[test]
fn bad_input_gives_typed_errors() {
    run(|| {
        let lstm = Rnn::new(RnnMode::Lstm, 3, 4, f64_opts(RnnOptions::default()))?;
        let e = err_of(lstm.forward(&det(&[5, 3], 0.1), None, None));
        assert!(matches!(&e, Error::Shape(m) if m.contains("lstm: expected input of rank 3")), "{e}");
        let e = err_of(lstm.forward(&det(&[5, 2, 3], 0.1), Some(&det(&[1, 2, 5], 0.2)), None));
        assert!(matches!(&e, Error::Shape(m) if m.contains("expected hx of shape [1, 2, 4]")), "{e}");
        let e = err_of(Rnn::new(RnnMode::Gru, 3, 4, RnnOptions { proj_size: 2, ..Default::default() }));
        assert!(matches!(e, Error::InvalidArgument(_)));
        let e = err_of(pack_padded_sequence(&det(&[3, 2, 1], 0.1), &[1, 3], false, true));
        assert!(matches!(e, Error::InvalidArgument(_)));
        Ok(())
    });
}
