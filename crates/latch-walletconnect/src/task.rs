//! The little async plumbing the engine needs, for one thread: a channel
//! (many senders, one receiver; also serves as a one-shot reply), `select`
//! and `join` of two futures, and the boxed-future type of the platform traits.
//!
//! Written here because the general crates (futures-channel, futures-util)
//! are built for threads: atomics, locks and wakers shared across cores, which
//! the browser module paid for in size and never used.

use std::any::Any;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::future::{poll_fn, Future};
use std::marker::PhantomData;
use std::pin::{pin, Pin};
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

/// A boxed future that stays on its thread.
pub type LocalBoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + 'a>>;

/// The channel itself, the same code whatever it carries: values are boxed
/// as `dyn Any`, so only the thin typed ends below are compiled per type.
struct Shared {
    queue: VecDeque<Box<dyn Any>>,
    senders: usize,
    receiving: bool,
    waker: Option<Waker>,
}

type Channel = Rc<RefCell<Shared>>;

/// Wakes the receiver once the channel is no longer borrowed, so an executor
/// that polls from inside `wake` finds it free.
fn wake(mut shared: std::cell::RefMut<'_, Shared>) {
    let waker = shared.waker.take();
    drop(shared);
    if let Some(waker) = waker {
        waker.wake();
    }
}

/// Queues `value` unless the receiver is gone (then gives it back).
fn push(channel: &Channel, value: Box<dyn Any>) -> Result<(), Box<dyn Any>> {
    let mut shared = channel.borrow_mut();
    if !shared.receiving {
        return Err(value);
    }
    shared.queue.push_back(value);
    wake(shared);
    Ok(())
}

fn poll_pop(channel: &Channel, cx: &mut Context<'_>) -> Poll<Option<Box<dyn Any>>> {
    let mut shared = channel.borrow_mut();
    if let Some(value) = shared.queue.pop_front() {
        return Poll::Ready(Some(value));
    }
    if shared.senders == 0 {
        return Poll::Ready(None);
    }
    shared.waker = Some(cx.waker().clone());
    Poll::Pending
}

fn add_sender(channel: &Channel) -> Channel {
    channel.borrow_mut().senders += 1;
    channel.clone()
}

fn drop_sender(channel: &Channel) {
    let mut shared = channel.borrow_mut();
    shared.senders -= 1;
    if shared.senders == 0 {
        wake(shared);
    }
}

fn drop_receiver(channel: &Channel) {
    let mut shared = channel.borrow_mut();
    shared.receiving = false;
    // What was queued has nobody to go to (dropped once the borrow ends).
    let dropped = std::mem::take(&mut shared.queue);
    drop(shared);
    drop(dropped);
}

/// Only this module's typed ends put values in, so the type always matches.
fn unbox<T: 'static>(value: Box<dyn Any>) -> T {
    match value.downcast() {
        Ok(value) => *value,
        Err(_) => unreachable!("a channel carries one type"),
    }
}

/// The sending half of [`channel`]; clones send into the same channel.
pub struct Sender<T>(Channel, PhantomData<T>);

/// The receiving half of [`channel`]: values in the order sent, then `None`
/// once every [`Sender`] is gone.
pub struct Receiver<T>(Channel, PhantomData<T>);

/// An unbounded channel. Used with one send, it is a one-shot reply whose
/// receiver sees `None` when the sender was dropped without answering.
pub fn channel<T: 'static>() -> (Sender<T>, Receiver<T>) {
    let shared = Rc::new(RefCell::new(Shared {
        queue: VecDeque::new(),
        senders: 1,
        receiving: true,
        waker: None,
    }));
    (Sender(shared.clone(), PhantomData), Receiver(shared, PhantomData))
}

impl<T: 'static> Sender<T> {
    /// Queues `value`; gives it back when the receiver is gone.
    pub fn send(&self, value: T) -> Result<(), T> {
        push(&self.0, Box::new(value)).map_err(unbox)
    }

    /// Whether the receiver is gone (nobody awaits what this would send).
    pub fn is_closed(&self) -> bool {
        !self.0.borrow().receiving
    }
}

impl<T> Clone for Sender<T> {
    fn clone(&self) -> Self {
        Sender(add_sender(&self.0), PhantomData)
    }
}

impl<T> Drop for Sender<T> {
    fn drop(&mut self) {
        drop_sender(&self.0);
    }
}

impl<T: 'static> Receiver<T> {
    /// The next value, or `None` once the channel is empty and every sender is gone.
    pub fn recv(&mut self) -> impl Future<Output = Option<T>> + Unpin + '_ {
        poll_fn(|cx| poll_pop(&self.0, cx).map(|value| value.map(unbox)))
    }

    /// The next value if one is queued now, without waiting.
    pub fn try_next(&mut self) -> Option<T> {
        let value = self.0.borrow_mut().queue.pop_front();
        value.map(unbox)
    }
}

impl<T> Drop for Receiver<T> {
    fn drop(&mut self) {
        drop_receiver(&self.0);
    }
}

impl<T> std::fmt::Debug for Sender<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Sender")
    }
}

impl<T> std::fmt::Debug for Receiver<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Receiver")
    }
}

/// Which of two futures finished first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Either<A, B> {
    /// The first.
    Left(A),
    /// The second.
    Right(B),
}

/// The output of whichever of `a` and `b` finishes first (`a` when both are
/// ready); the other is dropped.
pub async fn select<A: Future, B: Future>(a: A, b: B) -> Either<A::Output, B::Output> {
    let (mut a, mut b) = (pin!(a), pin!(b));
    poll_fn(|cx| {
        if let Poll::Ready(value) = a.as_mut().poll(cx) {
            return Poll::Ready(Either::Left(value));
        }
        b.as_mut().poll(cx).map(Either::Right)
    })
    .await
}

/// Both outputs, once `a` and `b` have both finished.
pub async fn join<A: Future, B: Future>(a: A, b: B) -> (A::Output, B::Output) {
    let (mut a, mut b) = (pin!(a), pin!(b));
    let (mut left, mut right) = (None, None);
    poll_fn(|cx| {
        if left.is_none() {
            if let Poll::Ready(value) = a.as_mut().poll(cx) {
                left = Some(value);
            }
        }
        if right.is_none() {
            if let Poll::Ready(value) = b.as_mut().poll(cx) {
                right = Some(value);
            }
        }
        match (left.take(), right.take()) {
            (Some(l), Some(r)) => Poll::Ready((l, r)),
            (l, r) => {
                (left, right) = (l, r);
                Poll::Pending
            }
        }
    })
    .await
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU32, Ordering};
    use std::sync::Arc;
    use std::task::Wake;

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
        assert_eq!(ready(poll(&mut first, &wakes)), Either::Right("now"));
        drop(first);

        let mut both = Box::pin(join(rx.recv(), std::future::ready(1)));
        assert!(poll(&mut both, &wakes).is_pending());
        tx.send(2).unwrap();
        assert_eq!(wakes.count(), 1);
        assert_eq!(ready(poll(&mut both, &wakes)), (Some(2), 1));
    }
}
