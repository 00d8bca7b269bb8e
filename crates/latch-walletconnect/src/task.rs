//! The async plumbing the engine needs: a channel (many senders, one receiver;
//! also serves as a one-shot reply), `select` and `join` of two futures, and
//! the boxed-future type of the platform traits, from futures-channel and
//! futures-util behind the few names the engine uses.

use std::future::Future;
use std::pin::pin;

use futures_channel::mpsc;
use futures_util::StreamExt;

pub use futures_util::future::{Either, LocalBoxFuture};

/// The sending end; cloned for each producer.
#[derive(Debug)]
pub struct Sender<T>(mpsc::UnboundedSender<T>);

/// The receiving end.
#[derive(Debug)]
pub struct Receiver<T>(mpsc::UnboundedReceiver<T>);

/// An unbounded channel: the engine's producers are the relay socket and the
/// caller's requests, each already bounded where it enters.
pub fn channel<T>() -> (Sender<T>, Receiver<T>) {
    let (tx, rx) = mpsc::unbounded();
    (Sender(tx), Receiver(rx))
}

impl<T> Sender<T> {
    /// Queues `value`; gives it back when the receiver is gone.
    pub fn send(&self, value: T) -> Result<(), T> {
        self.0.unbounded_send(value).map_err(mpsc::TrySendError::into_inner)
    }

    /// Whether the receiver is gone.
    pub fn is_closed(&self) -> bool {
        self.0.is_closed()
    }
}

impl<T> Clone for Sender<T> {
    fn clone(&self) -> Self {
        Self(self.0.clone())
    }
}

impl<T> Receiver<T> {
    /// The next value; `None` once every sender is gone and the queue is empty.
    pub fn recv(&mut self) -> impl Future<Output = Option<T>> + Unpin + '_ {
        self.0.next()
    }

    /// A value already queued, without waiting.
    pub fn try_next(&mut self) -> Option<T> {
        self.0.try_recv().ok()
    }
}

/// The output of whichever of `a` and `b` finishes first (`a` when both are
/// ready); the other is dropped.
pub async fn select<A: Future, B: Future>(a: A, b: B) -> Either<A::Output, B::Output> {
    match futures_util::future::select(pin!(a), pin!(b)).await {
        Either::Left((value, _)) => Either::Left(value),
        Either::Right((value, _)) => Either::Right(value),
    }
}

/// Both outputs, once `a` and `b` have both finished.
pub async fn join<A: Future, B: Future>(a: A, b: B) -> (A::Output, B::Output) {
    futures_util::future::join(a, b).await
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU32, Ordering};
    use std::sync::Arc;
    use std::task::Wake;

    use std::cell::RefCell;
    use std::pin::Pin;
    use std::rc::Rc;
    use std::task::{Context, Poll, Waker};

    use super::*;

    /// A waker that counts its wakes.
    #[derive(Default)]
    struct Wakes(AtomicU32);

    impl Wake for Wakes {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::Relaxed);
        }
    }

    impl Wakes {
        fn count(&self) -> u32 {
            self.0.load(Ordering::Relaxed)
        }
    }

    fn poll<F: Future + Unpin>(future: &mut F, wakes: &Arc<Wakes>) -> Poll<F::Output> {
        let waker = Waker::from(wakes.clone());
        Pin::new(future).poll(&mut Context::from_waker(&waker))
    }

    fn ready<T>(poll: Poll<T>) -> T {
        match poll {
            Poll::Ready(value) => value,
            Poll::Pending => panic!("expected a value"),
        }
    }

    #[test]
    fn values_arrive_in_order_then_none_when_senders_are_gone() {
        let wakes = Arc::new(Wakes::default());
        let (tx, mut rx) = channel();
        let tx2 = tx.clone();
        tx.send(1).unwrap();
        tx2.send(2).unwrap();
        assert_eq!(ready(poll(&mut rx.recv(), &wakes)), Some(1));
        assert_eq!(rx.try_next(), Some(2));
        drop(tx);
        assert!(poll(&mut rx.recv(), &wakes).is_pending(), "one sender is left");
        drop(tx2);
        assert_eq!(ready(poll(&mut rx.recv(), &wakes)), None);
    }

    #[test]
    fn a_waiting_receiver_is_woken_by_a_send_and_by_the_last_drop() {
        let wakes = Arc::new(Wakes::default());
        let (tx, mut rx) = channel::<u8>();
        assert!(poll(&mut rx.recv(), &wakes).is_pending());
        assert_eq!(wakes.count(), 0);
        tx.send(7).unwrap();
        assert_eq!(wakes.count(), 1);
        assert_eq!(ready(poll(&mut rx.recv(), &wakes)), Some(7));
        assert!(poll(&mut rx.recv(), &wakes).is_pending());
        drop(tx);
        assert_eq!(wakes.count(), 2);
        assert_eq!(ready(poll(&mut rx.recv(), &wakes)), None);
    }

    thread_local! {
        static ECHO: RefCell<Option<Sender<u8>>> = const { RefCell::new(None) };
    }

    /// A waker that uses the channel from inside `wake`, as an executor
    /// polling there would.
    struct Echo;

    impl Wake for Echo {
        fn wake(self: Arc<Self>) {
            ECHO.with(|echo| {
                if let Some(tx) = echo.borrow().as_ref() {
                    tx.send(0).unwrap();
                }
            });
        }
    }

    #[test]
    fn a_waker_may_use_the_channel() {
        let (tx, mut rx) = channel::<u8>();
        ECHO.with(|echo| *echo.borrow_mut() = Some(tx.clone()));
        let waker = Waker::from(Arc::new(Echo));
        assert!(Pin::new(&mut rx.recv())
            .poll(&mut Context::from_waker(&waker))
            .is_pending());
        tx.send(1).unwrap();
        assert_eq!(rx.try_next(), Some(1));
        assert_eq!(rx.try_next(), Some(0), "the waker's own send arrived");
        ECHO.with(|echo| echo.borrow_mut().take());
    }

    #[test]
    fn sending_to_a_dropped_receiver_gives_the_value_back() {
        let (tx, rx) = channel();
        assert!(!tx.is_closed());
        drop(rx);
        assert!(tx.is_closed());
        assert_eq!(tx.send("x"), Err("x"));
    }

    #[test]
    fn dropping_the_receiver_drops_what_was_queued() {
        let (tx, rx) = channel();
        let value = Rc::new(());
        tx.send(value.clone()).unwrap();
        assert_eq!(Rc::strong_count(&value), 2);
        drop(rx);
        assert_eq!(Rc::strong_count(&value), 1);
    }

    #[test]
    fn select_takes_the_first_ready_and_join_waits_for_both() {
        let wakes = Arc::new(Wakes::default());
        let (tx, mut rx) = channel::<u8>();
        let mut first = Box::pin(select(rx.recv(), std::future::ready("now")));
        assert!(matches!(ready(poll(&mut first, &wakes)), Either::Right("now")));
        drop(first);

        let mut both = Box::pin(join(rx.recv(), std::future::ready(1)));
        assert!(poll(&mut both, &wakes).is_pending());
        tx.send(2).unwrap();
        assert_eq!(wakes.count(), 1);
        assert_eq!(ready(poll(&mut both, &wakes)), (Some(2), 1));
    }
}
